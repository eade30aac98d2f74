/** Test Control Plane roots and ledgers written in source-formats §3.2's schema. */
import fs from "node:fs/promises";
import path from "node:path";

import { jsToPy, pyDumps, pyFloat, type PyValue } from "@/lib/json/python-json";
import { computeEntryHash, merkleRoot } from "@/lib/sources/control-plane/verify";

/** One entry to write, in source-formats.md §3.2's schema (id, prompts_used and hashes are filled in). */
export type CpEntrySpec = {
  event_type: string;
  submission_id: string;
  decision: string;
  reason?: string;
  metadata?: Record<string, unknown>;
  /** Python `isoformat()` UTC, e.g. `2026-02-17T14:30:00.000000+00:00`. */
  timestamp: string;
  id?: string;
};

let idCounter = 0;

/**
 * Serializes entries as Control Plane's LedgerClient writes them (§3.2): fields in order
 * `event_type, submission_id, decision, reason, prompts_used, metadata, id, timestamp,
 * previous_hash, entry_hash`, `json.dumps(ensure_ascii=False)` text, each `entry_hash` the
 * SHA-256 of the sorted entry without it and `previous_hash` the prior line's hash (`previous`
 * for the first line, `""` by default). Returns the JSONL text and the entry hashes.
 */
export function serializeLedger(entries: readonly CpEntrySpec[], previous = ""): { text: string; hashes: string[] } {
  const lines: string[] = [];
  const hashes: string[] = [];
  let prev = previous;
  for (const e of entries) {
    idCounter += 1;
    const entry = jsToPy({
      event_type: e.event_type,
      submission_id: e.submission_id,
      decision: e.decision,
      reason: e.reason ?? "",
      prompts_used: [],
      metadata: e.metadata ?? {},
      id: e.id ?? `LED-${idCounter.toString(16).padStart(8, "0")}`,
      timestamp: e.timestamp,
      previous_hash: prev,
    }) as Map<string, PyValue>;
    const hash = computeEntryHash(entry);
    entry.set("entry_hash", hash);
    lines.push(pyDumps(entry, { ensureAscii: false }));
    hashes.push(hash);
    prev = hash;
  }
  return { text: lines.map((l) => `${l}\n`).join(""), hashes };
}

/** The three main ledgers' entries of a Control Plane root to write. */
export type CpRootSpec = { governance?: CpEntrySpec[]; ho2m?: CpEntrySpec[]; ho1m?: CpEntrySpec[] };

const DIRS = { governance: "HOT/ledger", ho2m: "HO2/ledger", ho1m: "HO1/ledger" } as const;

/** Writes `<root>/HOT/ledger/governance.jsonl`, `HO2/ledger/ho2m.jsonl`, `HO1/ledger/ho1m.jsonl` (only those given). */
export async function writeControlPlaneRoot(root: string, spec: CpRootSpec): Promise<void> {
  for (const name of ["governance", "ho2m", "ho1m"] as const) {
    const entries = spec[name];
    if (!entries) continue;
    const dir = path.join(root, DIRS[name]);
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, `${name}.jsonl`), serializeLedger(entries).text);
  }
}

/**
 * Writes a rotated ledger: segments `<stem>-<stamp>.jsonl` then the active `<stem>.jsonl`, each
 * segment continuing the previous segment's chain, and `index.jsonl` rollups for the rotated
 * segments (§3.2 `{segment, count, bytes, first_timestamp, last_timestamp, first_entry_hash,
 * last_entry_hash, merkle_root}`).
 */
export async function writeRotatedLedger(dir: string, stem: string, segments: { stamp: string | null; entries: CpEntrySpec[] }[]): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  let prev = "";
  const index: string[] = [];
  for (const seg of segments) {
    const name = seg.stamp ? `${stem}-${seg.stamp}.jsonl` : `${stem}.jsonl`;
    const { text, hashes } = serializeLedger(seg.entries, prev);
    await fs.writeFile(path.join(dir, name), text);
    if (seg.stamp) {
      index.push(JSON.stringify({ segment: name, count: hashes.length, bytes: Buffer.byteLength(text), first_timestamp: seg.entries[0]?.timestamp, last_timestamp: seg.entries.at(-1)?.timestamp, first_entry_hash: hashes[0], last_entry_hash: hashes.at(-1), merkle_root: merkleRoot(hashes) }));
    }
    prev = hashes.at(-1) ?? prev;
  }
  await fs.writeFile(path.join(dir, "index.jsonl"), index.map((l) => `${l}\n`).join(""));
}

/** `2026-02-17T14:30:00.000000+00:00` plus `seconds`: a Python-isoformat timestamp for test ledgers. */
export function cpTime(seconds: number, base = Date.UTC(2026, 1, 17, 14, 30, 0)): string {
  const ms = base + Math.round(seconds * 1000);
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000+00:00");
}

/** Options of one scripted session (see {@link scriptSession}). */
export type CpSessionScript = {
  sessionId: string;
  /** Seconds after the base time of the first event. */
  start: number;
  turns: { user: string; response: string; woType?: string; tool?: { id: string; ok: boolean }; tokens?: { input: number; output: number }; failed?: string; gate?: "ACCEPT" | "REJECT" }[];
  end?: "clean" | "degraded" | "none";
  budgetWarning?: string;
};

/**
 * A session as HO2/HO1/the gateway would log it (§3.3), spread over the three ledgers: SESSION_START;
 * per turn WO_PLANNED → WO_DISPATCHED (ho2m), WO_EXECUTING → LLM_CALL → TOOL_CALL? →
 * WO_COMPLETED | WO_FAILED (ho1m), DISPATCH + EXCHANGE (governance), WO_QUALITY_GATE? and
 * TURN_RECORDED (ho2m); then SESSION_END, a DEGRADATION, or nothing. One second per step.
 */
export function scriptSession(s: CpSessionScript): Required<CpRootSpec> {
  const out: Required<CpRootSpec> = { governance: [], ho2m: [], ho1m: [] };
  let t = s.start;
  const at = () => cpTime((t += 1));
  const ses = s.sessionId;
  const prov = (extra: Record<string, unknown> = {}) => ({ provenance: { agent_id: "admin-001", agent_class: "ADMIN", session_id: ses, ...extra } });
  out.ho2m.push({ event_type: "SESSION_START", submission_id: ses, decision: "STARTED", reason: "Session started", metadata: prov(), timestamp: cpTime(t) });
  if (s.budgetWarning) out.governance.push({ event_type: "BUDGET_WARNING", submission_id: ses, decision: "WARNING", reason: s.budgetWarning, metadata: { session_id: ses }, timestamp: cpTime(t) });
  s.turns.forEach((turn, i) => {
    const wo = `WO-${ses}-${String(i + 1).padStart(3, "0")}`;
    const woProv = { provenance: { agent_id: "ho1-executor", agent_class: "EXECUTOR", work_order_id: wo, session_id: ses }, scope: { tier: "ho1" } };
    out.ho2m.push({ event_type: "WO_PLANNED", submission_id: wo, decision: "WO_CREATED", reason: "planned", metadata: { ...prov(), wo_type: turn.woType ?? "synthesize", tier_target: "HO1" }, timestamp: at() });
    out.ho2m.push({ event_type: "WO_DISPATCHED", submission_id: wo, decision: "WO_SENT_TO_HO1", reason: "dispatched", metadata: prov(), timestamp: at() });
    out.ho1m.push({ event_type: "WO_EXECUTING", submission_id: wo, decision: "WO_EXECUTING", reason: "executing", metadata: woProv, timestamp: at() });
    const tokens = turn.tokens ?? { input: 100, output: 20 };
    out.governance.push({ event_type: "DISPATCH", submission_id: "PRC-SYNTHESIZE-001", decision: "DISPATCHED", reason: "dispatch", metadata: { contract_id: "PRC-SYNTHESIZE-001", agent_id: "gateway", session_id: ses }, timestamp: cpTime(t) });
    out.governance.push({ event_type: "EXCHANGE", submission_id: "PRC-SYNTHESIZE-001", decision: "SUCCESS", reason: "Exchange completed", metadata: { agent_id: "gateway", session_id: ses, work_order_id: wo, prompt: `PROMPT: ${turn.user}`, response: `RESPONSE: ${turn.response}`, outcome: "success", input_tokens: tokens.input, output_tokens: tokens.output, latency_ms: 12.5, model_id: "claude-test" }, timestamp: cpTime(t) });
    out.ho1m.push({ event_type: "LLM_CALL", submission_id: wo, decision: "LLM_CALL", reason: "llm", metadata: { ...woProv, input_tokens: tokens.input, output_tokens: tokens.output, model_id: "claude-test", latency_ms: pyFloat(12) }, timestamp: at() });
    if (turn.tool) {
      out.ho1m.push({ event_type: "TOOL_CALL", submission_id: wo, decision: "TOOL_CALL", reason: "tool", metadata: { ...woProv, tool_id: turn.tool.id, status: turn.tool.ok ? "ok" : "error", arguments: { q: turn.user }, result: turn.tool.ok ? { rows: 3 } : null, tool_error: turn.tool.ok ? null : "boom", args_summary: "q", result_summary: turn.tool.ok ? "3 rows" : "error" }, timestamp: at() });
    }
    if (turn.failed) out.ho1m.push({ event_type: "WO_FAILED", submission_id: wo, decision: "WO_FAILED", reason: "failed", metadata: { ...woProv, error_code: turn.failed, error_message: `work order failed: ${turn.failed}` }, timestamp: at() });
    else out.ho1m.push({ event_type: "WO_COMPLETED", submission_id: wo, decision: "WO_COMPLETED", reason: "completed", metadata: { ...woProv, cost: 0.25 }, timestamp: at() });
    if (turn.gate) out.ho2m.push({ event_type: "WO_QUALITY_GATE", submission_id: wo, decision: turn.gate, reason: "gate", metadata: prov(), timestamp: at() });
    out.ho2m.push({ event_type: "TURN_RECORDED", submission_id: ses, decision: "RECORDED", reason: `Turn ${i + 1} recorded`, metadata: { ...prov(), turn_number: i + 1, user_message: turn.user, response: turn.response }, timestamp: at() });
  });
  if (s.end === "degraded") out.ho2m.push({ event_type: "DEGRADATION", submission_id: ses, decision: "DEGRADED", reason: "budget_exhausted: session budget spent", metadata: { ...prov(), error_code: "budget_exhausted" }, timestamp: at() });
  else if (s.end !== "none") out.ho2m.push({ event_type: "SESSION_END", submission_id: ses, decision: "ENDED", reason: "Session ended", metadata: { ...prov(), turn_count: s.turns.length, total_cost: 1.5 }, timestamp: at() });
  return out;
}

/** Concatenates scripted sessions ledger by ledger, then orders each ledger by timestamp (stable). */
export function mergeScripts(...scripts: Required<CpRootSpec>[]): Required<CpRootSpec> {
  const byTime = (a: CpEntrySpec, b: CpEntrySpec) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : 0);
  return {
    governance: scripts.flatMap((s) => s.governance).sort(byTime),
    ho2m: scripts.flatMap((s) => s.ho2m).sort(byTime),
    ho1m: scripts.flatMap((s) => s.ho1m).sort(byTime),
  };
}
