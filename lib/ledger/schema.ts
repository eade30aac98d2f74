/** The audit ledger's entry schemas (seed 002, hash chain of issue 26). */
import * as z from "zod";

/*
 * The audit ledger's entries (seed 002 "Evidence Store", contract §4.2): every tool call writes a
 * `tool_call_started` entry before it runs and a `tool_call_finished` entry after it, joined by
 * `receipt_id`. Client-safe: the dashboard's Audit page renders these shapes.
 */

export const LEDGER_SCHEMA_VERSION = 1;

/**
 * The hash chain's members, written beside the seed's fields on every entry since issue 26
 * (lib/ledger/chain): absent on entries written before it ("legacy, unchained").
 */
const chainFields = {
  seq: z.number().int().nonnegative().optional(),
  prev_hash: z.string().optional(),
  entry_hash: z.string().optional(),
};

const sha256HexSchema = z.string().regex(/^[0-9a-f]{64}$/, "a 64-character lowercase SHA-256 hex digest");

/** Where a call came in (lib/context `Door`). */
export const doorSchema = z.enum(["mcp", "http", "cli", "ui"]);

/** The outcome of a call: `crashed` only comes from orphan reconciliation. */
export const callResultSchema = z.enum(["success", "failure", "denied", "crashed"]);
export type CallResult = z.infer<typeof callResultSchema>;

/** One evaluated policy rule (contract §4.2 `{policy_id, decision, reason?}`). */
export const ledgerDecisionSchema = z.object({
  policy_id: z.string(),
  decision: z.enum(["allow", "deny", "approval_required"]),
  reason: z.string().optional(),
});
export type LedgerDecision = z.infer<typeof ledgerDecisionSchema>;

/** The scope a call was allowed: workspace-relative path patterns with their access. */
export const scopeSchema = z.object({ type: z.literal("path"), pattern: z.string(), access: z.enum(["read", "write"]) });
export type Scope = z.infer<typeof scopeSchema>;

/**
 * Written before the tool runs. `pid`/`host`/`process_id`/`process_start` name the OS process
 * that runs the call, so reconciliation tells a live caller from a dead one
 * (lib/ledger/process-identity; `process_start` where /proc exists, absent on older entries).
 */
export const startedEntrySchema = z.object({
  schema_version: z.literal(LEDGER_SCHEMA_VERSION),
  kind: z.literal("tool_call_started"),
  receipt_id: z.string().min(1),
  task_id: z.string(),
  tool_name: z.string(),
  door: doorSchema,
  client: z.string().optional(),
  /** On a team server: the machine and role of the token the request carried (issue 39). */
  actor: z.object({ machine: z.string(), role: z.enum(["read", "push", "admin"]) }).optional(),
  timestamp: z.iso.datetime(),
  input_hash: sha256HexSchema,
  input_ref: z.string(),
  scope_enforced: z.array(scopeSchema),
  pid: z.number().int(),
  host: z.string(),
  process_id: z.string(),
  process_start: z.string().optional(),
  ...chainFields,
});
export type StartedEntry = z.infer<typeof startedEntrySchema>;

/** Written after the tool returned or threw (or by reconciliation with `crashed`). */
export const finishedEntrySchema = z.object({
  schema_version: z.literal(LEDGER_SCHEMA_VERSION),
  kind: z.literal("tool_call_finished"),
  receipt_id: z.string().min(1),
  timestamp: z.iso.datetime(),
  result: callResultSchema,
  duration_ms: z.number().int().nonnegative(),
  /** The tool result's `status` (`ok`, `appended`, `invalid`, …) or the thrown error's code. */
  status: z.string().optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  output_hash: sha256HexSchema.optional(),
  output_ref: z.string().optional(),
  policy_decisions: z.array(ledgerDecisionSchema),
  artifacts_written: z.array(z.string()),
  note: z.string().optional(),
  ...chainFields,
});
export type FinishedEntry = z.infer<typeof finishedEntrySchema>;

export const ledgerEntrySchema = z.discriminatedUnion("kind", [startedEntrySchema, finishedEntrySchema]);
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;
export const LEDGER_EVENT_TYPES = ["tool_call_started", "tool_call_finished"] as const;
export type LedgerEventType = (typeof LEDGER_EVENT_TYPES)[number];

/** Where an entry sits on disk: its file (`tool-traces.jsonl` or a segment) and 1-based line. */
export type EntryLocation = { file: string; line: number };

/**
 * One entry with its full metadata: where it sits on disk, and the other half of its receipt —
 * a started entry carries its `outcome` (absent while running), a finished one the `call` it ends.
 */
export type AuditEntryView = LedgerEntry & {
  at: EntryLocation;
  outcome?: Pick<FinishedEntry, "result" | "duration_ms" | "status" | "timestamp">;
  call?: Pick<StartedEntry, "task_id" | "tool_name" | "door" | "client" | "timestamp">;
};

/** A page of entries: `total` matching, `next_offset` null on the last page. */
export type AuditPage = { total: number; offset: number; next_offset: number | null; entries: AuditEntryView[] };

/**
 * A blob as an inspection shows it: the value when present, and whether its hash recomputes;
 * `reference`: a large read's output stored as its source bytes (value: the reference; verified
 * when those bytes still hash as recorded); `pruned`: removed by retention at `pruned_at`.
 */
export type BlobView = { ref: string | null; state: "missing" | "present" | "reference" | "pruned"; verified: boolean; value: unknown; pruned_at?: string };

/** One receipt inspected: both entries, the input and output from their blobs, hash-verified. */
export type ReceiptInspection = { receipt_id: string; started: StartedEntry | null; finished: FinishedEntry | null; input: BlobView; output: BlobView };


/** Who last wrote or corrected a chain: the call's receipt, tool, door, client and finish time. */
export type ChainAuthor = { receipt_id: string; tool_name: string; door: z.infer<typeof doorSchema>; client: string | null; timestamp: string };
