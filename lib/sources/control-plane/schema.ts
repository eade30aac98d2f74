/** Result shapes of the Control Plane source, client-safe. */
/**
 * Result shapes of the Control Plane source (issue 11), client-safe: the dashboard imports
 * these types; the modules that compute them import them from here.
 */
import type { SessionStatus } from "@/lib/sources/common/schema";

/** What a verifier found wrong (errors) or noteworthy (warnings) at one line or segment. */
export type IntegrityIssueKind =
  | "malformed" // not a JSON object
  | "hash_mismatch" // entry_hash is not the SHA-256 of the entry without it
  | "noncanonical" // the hash verifies but the line's bytes are not the entry's json.dumps text
  | "chain_break" // previous_hash is not the prior entry's entry_hash
  | "cross_segment_break" // a segment's first previous_hash is neither "" nor the prior segment's last hash
  | "cross_segment_unlinked" // warning: a later segment starts a fresh chain ("")
  | "legacy" // warning: a line with neither entry_hash nor previous_hash; the chain restarts after it
  | "hash_missing" // a hashed-era line (it has previous_hash) without entry_hash
  | "predecessor_missing" // warning: the ledger's first available segment links to an earlier segment not on disk
  | "index_mismatch" // index.jsonl's rollup disagrees with the segment (merkle_root, count, first/last hash)
  | "index_missing_segment"; // index.jsonl names a segment that is not on disk

export type IntegrityIssue = {
  severity: "error" | "warning";
  kind: IntegrityIssueKind;
  /** Segment file name (`governance.jsonl`). */
  file: string;
  /** 1-based line in `file`; null for segment-level issues. */
  line: number | null;
  message: string;
};

/** One segment's figures: its Merkle root over entry hashes and how it compares with index.jsonl. */
export type SegmentIntegrity = {
  file: string;
  lines: number;
  entries: number;
  hashed: number;
  legacy: number;
  first_entry_hash: string;
  last_entry_hash: string;
  merkle_root: string;
  /** `match`/`mismatch` against the segment's index.jsonl row; `absent` when it has none (the active segment). */
  index: "match" | "mismatch" | "absent";
};

/** A ledger's verdict: `ok` (no error; legacy warnings allowed), `broken` (at least one error), `empty`. */
export type LedgerIntegrity = {
  ledger: string;
  status: "ok" | "broken" | "empty";
  entries: number;
  hashed: number;
  verified: number;
  legacy: number;
  /** The first error in chain order, the line a badge names; null when none. */
  first_broken: { file: string; line: number | null; kind: IntegrityIssueKind; message: string } | null;
  error_count: number;
  warning_count: number;
  /** Issues in chain order, at most {@link MAX_ISSUES} (counts above are complete). */
  issues: IntegrityIssue[];
  segments: SegmentIntegrity[];
};

/** Seed 004's error result (`status: "error"`), for an unknown session or ledger. */
export type CpErrorResult = { status: "error"; error: string; hint: string };

/** One row of seed 004's `list_sessions`. */
export type CpSessionRow = {
  session_id: string;
  started_at: string | null;
  ended_at: string | null;
  duration_seconds: number | null;
  turn_count: number;
  status: SessionStatus;
  first_user_message: string | null;
  last_response_preview: string | null;
};

/**
 * `list_sessions` for a Control Plane root (seed 004 §3.1): `{status:"ok", count, total, offset,
 * limit, sessions}` where `count` is the rows returned and `total` the sessions found; sessions in
 * SESSION_START order, paginated by `limit`/`offset`. A root without ho2m.jsonl has no sessions.
 */
export type CpListSessionsResult = { status: "ok"; count: number; total: number; offset: number; limit: number; sessions: CpSessionRow[] };

export type CpIssue = { type: string; message: string; timestamp: string | null; source: string };

export type CpSessionOverview = {
  status: "ok";
  summary: {
    session_id: string;
    started_at: string | null;
    ended_at: string | null;
    duration: string | null;
    turn_count: number;
    status: CpSessionRow["status"];
    about: string;
    top_user_messages: string[];
    errors: CpIssue[];
    warnings: CpIssue[];
  };
  diagnostics: {
    tokens: { input_total: number; output_total: number; grand_total: number; counted_from: "LLM_CALL" | "EXCHANGE" | "none" };
    work_orders: { total: number; by_type: Record<string, number>; by_state: Record<string, number> };
    tools: { total_calls: number; by_tool: Record<string, { called: number; succeeded: number; failed: number }> };
    quality_gates: { passed: number; rejected: number };
    ledger_events: Record<"governance" | "ho2m" | "ho1m", number>;
  };
};

export type CpTimelineRow = {
  timestamp: string | null;
  source: string;
  event_type: string;
  actor: string;
  turn_number: number | null;
  wo_id: string | null;
  /** Where the entry is, so a row links to its line in the viewer. */
  entry_id: string | null;
  file: string;
  line: number;
  payload: Record<string, unknown>;
};

/**
 * `reconstruct_session` (seed 004 §3.3): the session's entries from ho2m, ho1m and governance
 * merged by timestamp, ties broken by source (ho2m, ho1m, governance) then entry id; `event_count`
 * is every event, the page is `offset`/`limit`; rows shaped by `verbosity` and the include flags
 * ({@link payloadOf}). When the serialized result exceeds `max_bytes` (UTF-8), rows are dropped
 * from the end until it fits and `truncated` is true; `returned` is the rows kept.
 * Returns `{status:"error"}` for an unknown session.
 */
export type CpReconstructResult = { status: "ok"; session_id: string; event_count: number; returned: number; offset: number; truncated: boolean; timeline: CpTimelineRow[] };

/** One registered Control Plane root, shown as a project. */
export type ControlPlaneProject = {
  project_key: string;
  project_label: string;
  /** Absolute, real root. */
  root: string;
  registered_at: string;
};

