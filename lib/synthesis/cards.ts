/** Committed evidence chains loaded for synthesis (contract §3.3). */
import { cardChains, isJsonObject, readCardFile } from "@/lib/evidence/card-file";
import { resolveInside } from "@/lib/fs/paths";
import { evidenceCardRel } from "@/lib/fs/workspace-layout";
import type { TurnKey } from "@/lib/synthesis/schema";
import type { LoadedProject } from "@/lib/workspace/load";

/** One committed evidence chain reduced to what synthesis needs (contract §3.3). */
export type CommittedChain = TurnKey & {
  /** Each `trigger.quoted_messages[*].text` that is a non-empty string, verbatim. */
  messages: string[];
};

/** A card that could not be read as JSON: prompt-diary's cards reader raises on it. */
export type CardProblem = { path: string; message: string };

/** The project's committed chains and the cards that could not be read. */
export type CommittedChains = { chains: CommittedChain[]; committed: Set<string>; problems: CardProblem[] };

/** The identity of a turn in sets and maps. */
export const turnId = (sessionRef: string, turnRef: string): string => `${sessionRef}\u0000${turnRef}`;

type Obj = Record<string, unknown>;
const asObj = (v: unknown): Obj => (isJsonObject(v) ? v : {});
const asStr = (v: unknown): string => (typeof v === "string" ? v : "");

/**
 * Reads every `evidence/<session_ref>.json` card of the project's indexed sessions, in index
 * order then card order (prompt-diary's `load_committed_chains`, contract §3.3): a committed
 * chain is any object in `evidence_chains`, keyed by (session_ref, chain.turn_ref); chains are
 * not re-validated. A missing card has no chains; a card that is not a JSON object reads as
 * `{}`; a card that is not valid JSON is listed in `problems` (and has no chains).
 * @throws AppError invalid_input when a session_ref would resolve outside the project.
 */
export async function loadCommittedChains(project: LoadedProject): Promise<CommittedChains> {
  const chains: CommittedChain[] = [];
  const problems: CardProblem[] = [];
  for (const row of project.rows) {
    const cardPath = await resolveInside(project.dir, evidenceCardRel(row.session_ref));
    const read = await readCardFile(cardPath);
    if (read.state === "absent") continue;
    if (read.parseError !== null) {
      problems.push({ path: cardPath, message: `${cardPath} contains invalid JSON: ${read.parseError}` });
      continue;
    }
    for (const raw of cardChains(read.value)) {
      if (!isJsonObject(raw)) continue;
      const messages = (Array.isArray(asObj(raw.trigger).quoted_messages) ? (asObj(raw.trigger).quoted_messages as unknown[]) : [])
        .map((q) => asStr(asObj(q).text))
        .filter((text) => text !== "");
      chains.push({ session_ref: row.session_ref, turn_ref: asStr(raw.turn_ref), messages });
    }
  }
  return { chains, committed: new Set(chains.map((c) => turnId(c.session_ref, c.turn_ref))), problems };
}

/** A `source_user_messages` entry in the newest shape (contract §3.1). */
export type SourceUserMessages = TurnKey & { messages: string[] };

const byRefs = (a: TurnKey, b: TurnKey) => compare(a.session_ref, b.session_ref) || compare(a.turn_ref, b.turn_ref);

/** Python's string order: by code point (JS `<` compares UTF-16 units). */
function compare(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i += 1) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/**
 * `source_user_messages` exactly as seed 001 populates it on the first write: the chains sorted
 * by (session_ref, turn_ref) (stable), one `{session_ref, turn_ref, messages}` entry per chain
 * whose messages are non-empty; texts verbatim, no citations, no re-redaction.
 */
export function buildSourceUserMessages(chains: CommittedChain[]): SourceUserMessages[] {
  return [...chains]
    .sort(byRefs)
    .filter((c) => c.messages.length > 0)
    .map((c) => ({ session_ref: c.session_ref, turn_ref: c.turn_ref, messages: [...c.messages] }));
}

/**
 * Reads an envelope's `source_user_messages` in either shape (contract §3.1, §8.1): newest
 * `messages: string[]`, legacy `quoted_messages: [{text, citations}]`. Entries without string
 * refs are skipped; non-string messages and empty legacy texts are dropped.
 */
export function readSourceUserMessages(envelope: unknown): SourceUserMessages[] {
  const list = asObj(envelope).source_user_messages;
  if (!Array.isArray(list)) return [];
  const out: SourceUserMessages[] = [];
  for (const raw of list) {
    const entry = asObj(raw);
    if (typeof entry.session_ref !== "string" || typeof entry.turn_ref !== "string") continue;
    const messages = Array.isArray(entry.messages)
      ? entry.messages.filter((m): m is string => typeof m === "string")
      : Array.isArray(entry.quoted_messages)
        ? entry.quoted_messages.map((q) => asStr(asObj(q).text)).filter((t) => t !== "")
        : [];
    out.push({ session_ref: entry.session_ref, turn_ref: entry.turn_ref, messages });
  }
  return out;
}
