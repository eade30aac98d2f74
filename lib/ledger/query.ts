/** Seed 002's audit queries: all traces, or one task's, filtered. */
import { type BlobRead, readBlob } from "@/lib/ledger/blobs";
import type { IndexedEntry, LedgerIndex, Receipt } from "@/lib/ledger/ledger-index";
import type { Ledger } from "@/lib/ledger/ledger-store";
import type { AuditEntryView, AuditPage, BlobView, CallResult, LedgerEventType, ReceiptInspection } from "@/lib/ledger/schema";

/** Filters of seed 002's queries ("all traces", "traces of one task"); all optional. */
export type AuditFilter = {
  event_type?: LedgerEventType;
  task_id?: string;
  project_key?: string;
  session_ref?: string;
  tool_name?: string;
  door?: string;
  result?: CallResult | "running";
};

/**
 * Seed 002's `readTraces()` / `readTracesByTaskId()` with filters and paging: entries in ledger
 * order (segments then the active file), or newest first with `order: "desc"`. Task, tool and
 * door filters apply to both halves of a receipt through its started entry; `result` through its
 * finished entry (`running`: no finish yet). Reads the incremental index; never locks.
 */
export async function queryAudit(ledger: Ledger, filter: AuditFilter, page: { offset: number; max_entries: number; order: "asc" | "desc" }): Promise<AuditPage> {
  const index = await ledger.read();
  const matches = index.entries.filter((e) => matchesFilter(index, e, filter));
  if (page.order === "desc") matches.reverse();
  const slice = matches.slice(page.offset, page.offset + page.max_entries);
  const end = page.offset + slice.length;
  return { total: matches.length, offset: page.offset, next_offset: end < matches.length ? end : null, entries: slice.map((e) => entryView(index, e)) };
}

function matchesFilter(index: LedgerIndex, { entry }: IndexedEntry, f: AuditFilter): boolean {
  if (f.event_type && entry.kind !== f.event_type) return false;
  const receipt = index.receipts.get(entry.receipt_id);
  const started = receipt?.started;
  const taskId = started?.task_id;
  if (f.task_id !== undefined && taskId !== f.task_id) return false;
  if (f.project_key !== undefined) {
    const want = f.session_ref !== undefined ? `${f.project_key}/${f.session_ref}` : f.project_key;
    if (taskId !== want && !(f.session_ref === undefined && taskId?.startsWith(`${f.project_key}/`))) return false;
  } else if (f.session_ref !== undefined && !taskId?.endsWith(`/${f.session_ref}`)) return false;
  if (f.tool_name !== undefined && started?.tool_name !== f.tool_name) return false;
  if (f.door !== undefined && started?.door !== f.door) return false;
  if (f.result !== undefined && (receipt?.finished?.result ?? "running") !== f.result) return false;
  return true;
}

function entryView(index: LedgerIndex, { entry, at }: IndexedEntry): AuditEntryView {
  const receipt = index.receipts.get(entry.receipt_id) ?? {};
  if (entry.kind === "tool_call_started") {
    const f = receipt.finished;
    return { ...entry, at, ...(f ? { outcome: { result: f.result, duration_ms: f.duration_ms, status: f.status, timestamp: f.timestamp } } : {}) };
  }
  const s = receipt.started;
  return { ...entry, at, ...(s ? { call: { task_id: s.task_id, tool_name: s.tool_name, door: s.door, client: s.client, timestamp: s.timestamp } } : {}) };
}

/**
 * Seed 002's `inspectTask(taskId)`: every receipt of a task with its input, output and policy
 * decisions; or one receipt when `receiptId` is given. Blobs are read and re-hashed.
 */
export async function inspectAudit(ledger: Ledger, target: { task_id?: string; receipt_id?: string }): Promise<ReceiptInspection[]> {
  const index = await ledger.read();
  const ids = target.receipt_id !== undefined ? [target.receipt_id].filter((id) => index.receipts.has(id)) : (index.byTask.get(target.task_id ?? "") ?? []);
  const out: ReceiptInspection[] = [];
  for (const id of ids) out.push(await inspectReceipt(ledger, id, index.receipts.get(id)!));
  return out;
}

async function inspectReceipt(ledger: Ledger, id: string, receipt: Receipt): Promise<ReceiptInspection> {
  const input = receipt.started ? await blobView(ledger, receipt.started.input_hash, receipt.started.input_ref) : missing(null);
  const output = receipt.finished?.output_hash ? await blobView(ledger, receipt.finished.output_hash, receipt.finished.output_ref ?? null) : missing(null);
  return { receipt_id: id, started: receipt.started ?? null, finished: receipt.finished ?? null, input, output };
}

async function blobView(ledger: Ledger, hash: string, ref: string | null): Promise<BlobView> {
  const read: BlobRead = await readBlob(ledger.paths, hash);
  if (read.state === "missing") return missing(ref);
  if (read.state === "pruned") return { ref, state: "pruned", verified: false, value: null, pruned_at: read.pruned_at };
  return { ref, state: read.state, verified: read.verified, value: read.value };
}

const missing = (ref: string | null): BlobView => ({ ref, state: "missing", verified: false, value: null });
