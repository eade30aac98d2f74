import type { EvidenceError } from "@/lib/evidence/schema";

/*
 * Form messages in plain words (issue 12 item 11). The contract's messages ("evidence_chain.
 * trigger.type must be a controlled trigger.type value") are exact and stay available — the
 * field error shows them to anyone who expands it, and the tool API returns them unchanged —
 * but a reviewer first reads what to do.
 */

const PICK: Record<string, string> = {
  "trigger.type": "Pick a trigger type.",
  "outcome category": "Pick an outcome category.",
  "check type": "Pick a check type.",
  "terminal_state.type": "Pick how the turn ended.",
  materiality: "Pick a materiality.",
};

/** The span a reviewer typed, when it reads as two numbers: `"20-10"` → [20, 10]. */
function typedSpan(value: unknown): [number, number] | null {
  if (typeof value !== "string") return null;
  const m = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(value);
  return m ? [Number(m[1]), Number(m[2])] : null;
}

/**
 * The plain-words lead of one error, given the value the field holds now; null when the
 * contract message is already plain (it is then shown as it is).
 */
export function plainWords(error: EvidenceError, value?: unknown): string | null {
  const { message } = error;
  const controlled = /must be a controlled (.+) value$/.exec(message);
  if (controlled) return PICK[controlled[1]!] ?? "Pick a value from the list.";
  if (message.endsWith("must be a non-empty string")) return "Write something here: it cannot be empty.";
  if (message.endsWith("must be a numeric line span")) {
    const span = typedSpan(value);
    if (span && span[0] > span[1]) return `The end (${span[1]}) is before the start (${span[0]}): write the smaller line first.`;
    return "Write a line span such as 12-20 (or one line, 12).";
  }
  const outside = /^line span (\d+)-(\d+) is outside turn (\S+) span (\d+)-(\d+)$/.exec(message);
  if (outside) return `Lines ${outside[1]}–${outside[2]} are not in turn ${outside[3]} (lines ${outside[4]}–${outside[5]}). Cite lines of this turn.`;
  if (message.startsWith("material_result terminal_state requires")) return "Add at least one outcome, or pick an ending that explains why there is none.";
  if (message === "a material outcome cites only trigger evidence") return "A material outcome must cite what the agent did, not only the user's request.";
  if (/already has a committed evidence chain/.test(message)) return "This turn already has a chain: edit that one instead.";
  if (message === "work_item.covered_turns must list at least one entry") return "Select at least one turn in the strip above.";
  // Any other contract message opens with the field's path (`work_item.kind must be …`): say the field's name instead.
  const pathed = /^[a-z_]+(?:\.[a-z_]+|\[\d+\])+ (must .+|is .+)$/.exec(message);
  if (pathed) {
    const field = /([a-z_]+)(?:\[\d+\])*(?= )/.exec(message)![1]!.replace(/_/g, " ");
    return `${field[0]!.toUpperCase()}${field.slice(1)} ${pathed[1]}.`.replace(/\.\.$/, ".");
  }
  return null;
}
