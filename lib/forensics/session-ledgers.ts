/** A session's transcripts read as seed 004 ledgers (`query_ledger_full`). */
import type { CoreContext } from "@/lib/context";
import { matchesLedger, unknownLedger } from "@/lib/forensics/grep";
import { scanSession } from "@/lib/forensics/scan";
import type { ForensicsInvalid, SessionLedgerInput } from "@/lib/forensics/schema";
import { readLineRange } from "@/lib/jsonl/line-index";
import { sourceFormat } from "@/lib/sources/formats";
import { getWorkspaceLineIndex, resolveSession } from "@/lib/workspace/sessions";

/** One entry of a session ledger: a transcript record with its full content (seed 004 `query_ledger_full`). */
export type SessionLedgerEntry = { line: number; timestamp: string | null; event_type: string; record: unknown };

/** One page of a session ledger, in `query_ledger_full`'s page shape (`total`, `offset`, `next_offset`, `entries`). */
export type SessionLedgerPage = {
  status: "ok";
  ledger: string;
  project_key: string;
  session_ref: string;
  file: string;
  total: number;
  offset: number;
  next_offset: number | null;
  returned: number;
  truncated: boolean;
  entries: SessionLedgerEntry[];
};

/** The session ledgers `query_ledger_full` understands besides the audit ledger. */
export function isSessionLedgerName(ledger: string): boolean {
  return ledger === "main" || ledger.startsWith("subagent:");
}

/**
 * `query_ledger_full` over one source of a session (issue 9: every session source is a
 * ledger): `ledger` is `main` or `subagent:<agent_id>`. Entries are the file's records in line
 * order, each `{line, timestamp, event_type, record}` with the whole parsed record (a line that
 * is not JSON gives `record: null`; in a session of an agent read through the source contract,
 * whose lines may be text by format, a Markdown history's, it gives the line's text), optionally
 * only one `event_type` (the timeline's types), paginated by `max_entries`/`offset`
 * (`order: "desc"` newest first); `total` is the number of matching entries. Entries are added while the response stays within `max_bytes`; `truncated`
 * says when one was cut, and `next_offset` where to continue (null on the last page).
 * Unknown project, session or ledger → `{status:"invalid"}` naming the field.
 * @throws the fs error when the file cannot be read.
 */
export async function querySessionLedger(ctx: CoreContext, input: SessionLedgerInput): Promise<SessionLedgerPage | ForensicsInvalid> {
  const resolved = await resolveSession(ctx, input.project_key, input.session_ref);
  if (!resolved.ok) return { status: "invalid", errors: [resolved.failure] };
  if (!isSessionLedgerName(input.ledger)) return { status: "invalid", errors: [unknownLedger(input.ledger)] };
  const scan = await scanSession(ctx, resolved.session);
  const fileIndex = scan.files.findIndex((f) => f.kind !== "tool_result" && matchesLedger(f, input.ledger));
  if (fileIndex < 0) return { status: "invalid", errors: [unknownLedger(input.ledger)] };
  const file = scan.files[fileIndex]!;
  const typeId = input.event_type === undefined ? -1 : scan.types.indexOf(input.event_type);
  // Slots of one file were pushed in line order, so a scan over slots is a scan in line order.
  const slots: number[] = [];
  if (input.event_type === undefined || typeId >= 0) {
    for (let slot = 0; slot < scan.count; slot++) {
      if (scan.fileIndex[slot] !== fileIndex) continue;
      if (typeId >= 0 && scan.typeId[slot] !== typeId) continue;
      // An agent's own event has a slot after its line's (lib/forensics/agent-scan): the line is listed once unless its event is asked for.
      if (typeId < 0 && slot > 0 && scan.fileIndex[slot - 1] === fileIndex && scan.line[slot - 1] === scan.line[slot]) continue;
      slots.push(slot);
    }
  }
  if (input.order === "desc") slots.reverse();
  const base: SessionLedgerPage = {
    status: "ok",
    ledger: input.ledger,
    project_key: input.project_key,
    session_ref: input.session_ref,
    file: file.relative,
    total: slots.length,
    offset: input.offset,
    next_offset: null,
    returned: 0,
    truncated: false,
    entries: [],
  };
  let used = Buffer.byteLength(JSON.stringify({ ...base, next_offset: slots.length, returned: input.max_entries, truncated: true })) + 8;
  const index = await getWorkspaceLineIndex(ctx, file.path);
  // An agent's workspace lines are its own format (contract §1.6): a line that is not JSON is its text, not a malformed record.
  const textLines = (sourceFormat(resolved.session.row.source)?.agent ?? null) !== null;
  const entries: SessionLedgerEntry[] = [];
  let truncated = false;
  for (const slot of slots.slice(input.offset, input.offset + input.max_entries)) {
    const line = scan.line[slot]!;
    const [text] = await readLineRange(file.path, index, line, line);
    let record: unknown = null;
    try {
      record = JSON.parse(text?.text ?? "");
    } catch {
      record = textLines ? (text?.text ?? null) : null;
    }
    const ts = scan.ts[slot]!;
    const entry: SessionLedgerEntry = { line, timestamp: Number.isNaN(ts) ? null : new Date(ts).toISOString(), event_type: scan.types[scan.typeId[slot]!]!, record };
    const size = Buffer.byteLength(JSON.stringify(entry)) + 1;
    if (used + size > input.max_bytes) {
      truncated = true;
      break;
    }
    used += size;
    entries.push(entry);
  }
  const next = input.offset + entries.length;
  return { ...base, next_offset: next < slots.length ? next : null, returned: entries.length, truncated, entries };
}
