import path from "node:path";

import { AppError } from "@/lib/errors";
import { discoverControlPlane } from "@/lib/sources/control-plane/discover";
import { type LedgerIntegrity, verifyControlPlane } from "@/lib/sources/control-plane/verify";

/**
 * `casefile ledger verify ROOT [--json]`: verifies every ledger of a Control Plane root (hash
 * chain, legacy lines, cross-segment links, Merkle roots against index.jsonl) and prints one line
 * per ledger naming the first broken line, or `{ok:true,data:{root,ledgers}}` with --json.
 * Exit 0 when no ledger is broken, 1 otherwise. Read-only.
 * @throws AppError invalid_input for a missing subcommand/ROOT or a root without ledgers.
 */
export async function runLedger(args: string[], json: boolean): Promise<number> {
  const [sub, root] = args;
  if (sub !== "verify" || !root) throw new AppError("invalid_input", "usage: casefile ledger verify ROOT [--json]", { hint: "ROOT is a Control Plane directory holding HOT/, HO2/, HO1/ or planes/" });
  const layout = await discoverControlPlane(path.resolve(root));
  const ledgers = await verifyControlPlane(layout);
  const broken = ledgers.some((l) => l.status === "broken");
  process.stdout.write(json ? `${JSON.stringify({ ok: true, data: { root: layout.root, ok: !broken, ledgers } })}\n` : renderVerdicts(layout.root, ledgers));
  return broken ? 1 : 0;
}

/** One line per ledger: ✓/✗, id, counts, and the first broken line. */
export function renderVerdicts(root: string, ledgers: LedgerIntegrity[]): string {
  const lines = [`Control Plane root ${root}`];
  for (const l of ledgers) {
    const counts = `${l.entries} entries, ${l.verified}/${l.hashed} hashed verified${l.legacy ? `, ${l.legacy} legacy` : ""}, ${l.segments.length} segment(s)`;
    const mark = l.status === "broken" ? "✗" : "✓";
    const where = l.first_broken ? `  first broken: ${l.first_broken.file}${l.first_broken.line ? `:${l.first_broken.line}` : ""} ${l.first_broken.kind}: ${l.first_broken.message}` : "";
    lines.push(`${mark} ${l.ledger.padEnd(28)} ${l.status.padEnd(6)} ${counts}${where}`);
  }
  return `${lines.join("\n")}\n`;
}
