import { getLedger } from "@/lib/ledger/ledger-store";
import type { LedgerEntry } from "@/lib/ledger/schema";
import { parseAge, pruneBlobs, readRetention } from "@/lib/ledger/retention";
import { verifyLedger } from "@/lib/ledger/verify";
import { AppError } from "@/lib/errors";

const TAIL_POLL_MS = 250;

/**
 * `casefile audit verify [--json]`: proves the ledger intact (every started entry has exactly one
 * finished entry, every blob's hash recomputes, segments in order, no torn line) and exits 0, or
 * lists the findings and exits 1. `--json` prints the report as one JSON object.
 * `casefile audit anchor [--json]`: prints the head hash (the chain's last entry hash) with the
 * entry count, for the user to keep elsewhere: a later verify against it proves the ledger was not
 * rewritten wholesale since.
 * `casefile audit prune [--older-than 30d] [--json]`: removes blobs older than the age (default:
 * the retention file's `older_than_days`) and the oldest past its `max_bytes`; never ledger lines.
 * `casefile audit tail [--json]`: prints the last 10 entries, then follows new ones like
 * `tail -f` until interrupted.
 * @throws AppError invalid_input for an unknown subcommand.
 */
export async function runAudit(workspace: string, sub: string | undefined, json: boolean, options: { olderThan?: string } = {}): Promise<number> {
  const ledger = getLedger(workspace);
  if (sub === "prune") {
    const retention = await readRetention(ledger.paths);
    const olderThanMs = options.olderThan !== undefined ? parseAge(options.olderThan) : retention.older_than_days !== undefined ? retention.older_than_days * 86_400_000 : undefined;
    if (olderThanMs === undefined && retention.max_bytes === undefined) {
      throw new AppError("invalid_input", "nothing to prune by: give --older-than or set max_bytes or older_than_days in the retention file", { hint: `casefile audit prune --older-than 30d, or write {"max_bytes": 100000000} to ${ledger.paths.retention}` });
    }
    const report = await pruneBlobs(ledger.paths, { olderThanMs, maxBytes: retention.max_bytes });
    process.stdout.write(json ? `${JSON.stringify(report)}\n` : `pruned ${report.removed} blob(s), ${formatBytes(report.removed_bytes)}; ${report.kept} blob(s), ${formatBytes(report.kept_bytes)} kept (ledger lines untouched)\n`);
    return 0;
  }
  if (sub === "verify") {
    const report = await verifyLedger(ledger.paths);
    if (json) process.stdout.write(`${JSON.stringify(report)}\n`);
    else {
      const summary = `${report.entries} entries, ${report.receipts} calls, ${report.segments} segments, ${report.blobs} blobs${report.in_flight ? `, ${report.in_flight} in flight` : ""}`;
      process.stdout.write(report.ok ? `audit ledger intact: ${summary}\n` : `audit ledger has ${report.findings.length} problem(s) (${summary}):\n`);
      const c = report.chain;
      if (c.legacy_lines > 0) process.stdout.write(`  legacy, unchained: ${c.legacy_lines} line(s) up to ${c.legacy_through} (written before the hash chain)\n`);
      if (c.first_break) process.stdout.write(`  chain broken at ${c.first_break.file ? `${c.first_break.file}${c.first_break.line ? `:${c.first_break.line}` : ""}` : "the head"}: ${c.first_break.kind.replace("_", " ")}\n`);
      else if (c.chained > 0) process.stdout.write(`  hash chain intact: ${c.chained} chained entries, head ${c.head?.last_hash ?? "(none)"}\n`);
      const b = report.blob_states;
      if (b.references || b.pruned) process.stdout.write(`  blobs: ${b.stored} stored, ${b.references} source references${b.references_stale ? ` (${b.references_stale} whose source changed)` : ""}, ${b.pruned} pruned\n`);
      for (const f of report.findings) process.stdout.write(`  ${f.kind}${f.file ? ` ${f.file}${f.line ? `:${f.line}` : ""}` : ""}: ${f.message}\n`);
    }
    return report.ok ? 0 : 1;
  }
  if (sub === "anchor") {
    const head = ledger.readHead();
    if (!head) throw new AppError("not_found", "the audit ledger has no chained entry yet: nothing to anchor", { hint: "make any tool call, then run casefile audit anchor again" });
    const anchor = { last_hash: head.last_hash, entries: head.entries, segments: head.segments.length, updated_at: head.updated_at };
    process.stdout.write(json ? `${JSON.stringify(anchor)}\n` : `${head.last_hash}  ${head.entries} entries  ${head.updated_at}\n`);
    return 0;
  }
  if (sub === "tail") {
    const index = await ledger.read();
    let printed = Math.max(0, index.entries.length - 10);
    for (;;) {
      await ledger.read();
      for (; printed < index.entries.length; printed += 1) process.stdout.write(`${json ? JSON.stringify(index.entries[printed]!.entry) : formatEntry(index.entries[printed]!.entry, index)}\n`);
      await new Promise((r) => setTimeout(r, TAIL_POLL_MS));
    }
  }
  throw new AppError("invalid_input", `unknown audit command '${sub ?? ""}'`, { hint: "use casefile audit verify [--json], anchor [--json], prune [--older-than 30d] or tail" });
}

const formatBytes = (n: number): string => (n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KB` : `${n} B`);

function formatEntry(entry: LedgerEntry, index: Awaited<ReturnType<ReturnType<typeof getLedger>["read"]>>): string {
  if (entry.kind === "tool_call_started") return `${entry.timestamp}  start   ${entry.door.padEnd(4)} ${entry.tool_name}  ${entry.task_id}  ${entry.receipt_id}`;
  const s = index.receipts.get(entry.receipt_id)?.started;
  return `${entry.timestamp}  ${entry.result.padEnd(7)} ${(s?.door ?? "?").padEnd(4)} ${s?.tool_name ?? "?"}  ${s?.task_id ?? "?"}  ${entry.duration_ms} ms${entry.artifacts_written.length ? `  wrote ${entry.artifacts_written.join(", ")}` : ""}`;
}
