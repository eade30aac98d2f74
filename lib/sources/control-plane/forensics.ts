/** Seed 004's five forensic tools over Control Plane v2 ledgers. */
/**
 * Seed 004's five forensic tools over Control Plane v2 ledgers (source-formats.md §3), as pure
 * functions of a discovered root. The registered tools (`list_sessions`, `session_overview`,
 * `reconstruct_session`, `query_ledger_full`, `grep_jsonl`) dispatch here when the project is a
 * control-plane project. Every function is read-only and deterministic: same ledgers, same
 * input, same output.
 */
import path from "node:path";

import { type ControlPlaneLayout, findLedger, MAIN_LEDGERS, type MainLedgerName } from "@/lib/sources/control-plane/discover";
import { forEachLedgerLine } from "@/lib/sources/control-plane/ledger-lines";
import { belongsToSession, type CpEntry, isObject, type JsonObject, metadataOf, readLedgerEntries, sessionIdOf, workOrderIdOf } from "@/lib/sources/control-plane/entries";
import type { CpErrorResult, CpSessionRow, CpListSessionsResult, CpIssue, CpSessionOverview, CpTimelineRow, CpReconstructResult } from "@/lib/sources/control-plane/schema";
import { humanDuration } from "@/lib/format/duration";
export type { CpErrorResult, CpSessionRow, CpListSessionsResult, CpIssue, CpSessionOverview, CpTimelineRow, CpReconstructResult };



const SOURCE_PRIORITY: Record<string, number> = { ho2m: 0, ho1m: 1, governance: 2 };
const DEFAULT_ACTOR: Record<string, string> = { ho2m: "ho2", ho1m: "ho1", governance: "gateway" };

const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);
const text = (v: unknown): string | null => (typeof v === "string" ? v : null);

async function mainEntries(layout: ControlPlaneLayout, name: MainLedgerName): Promise<CpEntry[]> {
  const ledger = findLedger(layout, name);
  return ledger ? (await readLedgerEntries(ledger)).entries : [];
}

function compareEntries(a: CpEntry, b: CpEntry): number {
  const ta = a.micros ?? Number.MAX_SAFE_INTEGER;
  const tb = b.micros ?? Number.MAX_SAFE_INTEGER;
  if (ta !== tb) return ta - tb;
  const pa = SOURCE_PRIORITY[a.source] ?? 3;
  const pb = SOURCE_PRIORITY[b.source] ?? 3;
  if (pa !== pb) return pa - pb;
  const ia = String(a.entry.id ?? "");
  const ib = String(b.entry.id ?? "");
  return ia < ib ? -1 : ia > ib ? 1 : a.line - b.line;
}

// ---------------------------------------------------------------------------------------------
// list_sessions


type SessionFacts = CpSessionRow & { events: CpEntry[]; lastDegradation: CpEntry | null };

const PREVIEW_CHARS = 200;
const preview = (v: unknown): string | null => {
  const t = text(v);
  return t === null ? null : t.length > PREVIEW_CHARS ? `${t.slice(0, PREVIEW_CHARS)}…` : t;
};

/**
 * Sessions of ho2m.jsonl, in SESSION_START order (seed 004 §3 "list_sessions" logic): each
 * SESSION_START's session with its SESSION_END (same session id), TURN_RECORDED count, first
 * user_message and last response. Status: the session's last ho2m event is DEGRADATION →
 * `errored`; else a SESSION_END exists → `completed`; else `active`.
 */
async function sessionFacts(layout: ControlPlaneLayout): Promise<SessionFacts[]> {
  const ho2m = await mainEntries(layout, "ho2m");
  // readLedgerEntries returns the same array while the ledger is unchanged (the home page polls).
  const hit = factsCache.get(ho2m);
  if (hit) return hit;
  const facts = computeSessionFacts(ho2m);
  factsCache.set(ho2m, facts);
  return facts;
}

const factsCache = new WeakMap<CpEntry[], SessionFacts[]>();

function computeSessionFacts(ho2m: CpEntry[]): SessionFacts[] {
  const byId = new Map<string, SessionFacts>();
  for (const e of ho2m) {
    if (e.entry.event_type !== "SESSION_START") continue;
    const id = sessionIdOf(e.entry);
    if (!id || byId.has(id)) continue;
    byId.set(id, { session_id: id, started_at: text(e.entry.timestamp), ended_at: null, duration_seconds: null, turn_count: 0, status: "active", first_user_message: null, last_response_preview: null, events: [], lastDegradation: null });
  }
  for (const e of ho2m) {
    const id = sessionIdOf(e.entry);
    const s = id ? byId.get(id) : undefined;
    if (!s) continue;
    s.events.push(e);
    const meta = metadataOf(e.entry);
    if (e.entry.event_type === "TURN_RECORDED") {
      s.turn_count += 1;
      if (s.first_user_message === null) s.first_user_message = preview(meta.user_message);
      s.last_response_preview = preview(meta.response) ?? s.last_response_preview;
    } else if (e.entry.event_type === "SESSION_END") {
      s.ended_at = text(e.entry.timestamp);
    } else if (e.entry.event_type === "DEGRADATION") {
      s.lastDegradation = e;
    }
  }
  for (const s of byId.values()) {
    const last = [...s.events].sort(compareEntries).at(-1);
    s.status = last?.entry.event_type === "DEGRADATION" ? "errored" : s.ended_at ? "completed" : "active";
    const start = s.events.find((e) => e.entry.event_type === "SESSION_START")?.micros ?? null;
    const end = s.events.find((e) => e.entry.event_type === "SESSION_END")?.micros ?? null;
    s.duration_seconds = start !== null && end !== null ? Math.round((end - start) / 1e6) : null;
  }
  return [...byId.values()];
}

const rowOf = ({ events: _e, lastDegradation: _d, ...row }: SessionFacts): CpSessionRow => row;


export async function cpListSessions(layout: ControlPlaneLayout, input: { limit: number; offset: number }): Promise<CpListSessionsResult> {
  const all = (await sessionFacts(layout)).map(rowOf);
  const sessions = all.slice(input.offset, input.offset + input.limit);
  return { status: "ok" as const, count: sessions.length, total: all.length, offset: input.offset, limit: input.limit, sessions };
}

// ---------------------------------------------------------------------------------------------
// session_overview



const TOP_USER_MESSAGES = 5;
const WO_STATE: Record<string, string> = { WO_PLANNED: "planned", WO_DISPATCHED: "dispatched", WO_EXECUTING: "executing", WO_COMPLETED: "completed", WO_FAILED: "failed" };

/** Every entry of the three main ledgers that belongs to the session (§3.3), in timeline order. */
async function sessionEvents(layout: ControlPlaneLayout, sessionId: string): Promise<CpEntry[]> {
  const out: CpEntry[] = [];
  for (const name of MAIN_LEDGERS) for (const e of await mainEntries(layout, name)) if (belongsToSession(e.entry, sessionId)) out.push(e);
  return out.sort(compareEntries);
}

/** True when an entry of ho2m, ho1m or governance belongs to `sessionId` (what every session tool requires; ledgers read through the entries cache). */
export async function hasCpSession(layout: ControlPlaneLayout, sessionId: string): Promise<boolean> {
  for (const name of MAIN_LEDGERS) for (const e of await mainEntries(layout, name)) if (belongsToSession(e.entry, sessionId)) return true;
  return false;
}

function unknownSession(sessionId: string): CpErrorResult {
  return { status: "error", error: `unknown session_id '${sessionId}'`, hint: "use a session_id from list_sessions (SES-…)" };
}

/**
 * `session_overview` (seed 004 §3.2): a human summary first — `about`, a deterministic paragraph
 * ({@link aboutSession}) — then diagnostics over the session's entries in ho2m, ho1m and
 * governance. Errors: DEGRADATION, WO_FAILED, EXCHANGE with decision ERROR or outcome
 * error/timeout, PROMPT_REJECTED (type = `error_code` when present, e.g. `budget_exhausted`).
 * Warnings: BUDGET_WARNING (`budget_warning`), ESCALATION. Tokens: LLM_CALL input/output tokens
 * (ho1m); EXCHANGE's (governance) only when the session has no LLM_CALL, so one model call is
 * never counted twice. Work orders: WO_PLANNED count and `wo_type`, state = the latest WO event.
 * Tools: TOOL_CALL by `tool_id`, failed when `status` is not ok/success or `tool_error` is set.
 * Returns `{status:"error"}` when no entry of the three ledgers belongs to the session.
 */
export async function cpSessionOverview(layout: ControlPlaneLayout, sessionId: string): Promise<CpSessionOverview | CpErrorResult> {
  const events = await sessionEvents(layout, sessionId);
  if (events.length === 0) return unknownSession(sessionId);
  const facts = (await sessionFacts(layout)).find((s) => s.session_id === sessionId);
  const errors: CpIssue[] = [];
  const warnings: CpIssue[] = [];
  const userMessages: string[] = [];
  const tokens = { llm: { in: 0, out: 0, n: 0 }, exchange: { in: 0, out: 0, n: 0 } };
  const woType = new Map<string, string>();
  const woState = new Map<string, string>();
  const tools: CpSessionOverview["diagnostics"]["tools"]["by_tool"] = {};
  let toolCalls = 0;
  const gates = { passed: 0, rejected: 0 };
  const ledgerEvents: Record<MainLedgerName, number> = { ho2m: 0, ho1m: 0, governance: 0 };
  for (const e of events) {
    const type = String(e.entry.event_type ?? "");
    const meta = metadataOf(e.entry);
    const issue = (kind: string, message: string): CpIssue => ({ type: kind, message, timestamp: text(e.entry.timestamp), source: e.source });
    ledgerEvents[e.source as MainLedgerName] += 1;
    const wo = workOrderIdOf(e.entry);
    if (type === "TURN_RECORDED" && text(meta.user_message)) userMessages.push(text(meta.user_message)!);
    if (type === "DEGRADATION") errors.push(issue(text(meta.error_code) ?? text(meta.reason) ?? "degradation", text(e.entry.reason) ?? "degradation"));
    if (type === "WO_FAILED") errors.push(issue(text(meta.error_code) ?? "wo_failed", text(meta.error_message) ?? text(e.entry.reason) ?? "work order failed"));
    if (type === "EXCHANGE" && (e.entry.decision === "ERROR" || meta.outcome === "error" || meta.outcome === "timeout")) {
      errors.push(issue(text(meta.error_code) ?? `exchange_${text(meta.outcome) ?? "error"}`, text(meta.error_message) ?? text(e.entry.reason) ?? "exchange failed"));
    }
    if (type === "PROMPT_REJECTED") errors.push(issue("prompt_rejected", text(e.entry.reason) ?? "prompt rejected"));
    if (type === "BUDGET_WARNING") warnings.push(issue("budget_warning", text(e.entry.reason) ?? "budget warning"));
    if (type === "ESCALATION") warnings.push(issue("escalation", text(e.entry.reason) ?? "escalation"));
    if (type === "LLM_CALL") {
      tokens.llm.in += num(meta.input_tokens);
      tokens.llm.out += num(meta.output_tokens);
      tokens.llm.n += 1;
    }
    if (type === "EXCHANGE") {
      tokens.exchange.in += num(meta.input_tokens);
      tokens.exchange.out += num(meta.output_tokens);
      tokens.exchange.n += 1;
    }
    if (type === "WO_PLANNED" && wo) woType.set(wo, text(meta.wo_type) ?? "unknown");
    if (wo && WO_STATE[type]) woState.set(wo, WO_STATE[type]!);
    if (type === "TOOL_CALL") {
      const id = text(meta.tool_id) ?? "unknown";
      const t = (tools[id] ??= { called: 0, succeeded: 0, failed: 0 });
      t.called += 1;
      toolCalls += 1;
      const status = text(meta.status)?.toLowerCase();
      if (meta.tool_error || (status !== undefined && status !== "ok" && status !== "success")) t.failed += 1;
      else t.succeeded += 1;
    }
    if (type === "WO_QUALITY_GATE") {
      if (e.entry.decision === "ACCEPT") gates.passed += 1;
      else if (e.entry.decision === "REJECT") gates.rejected += 1;
    }
  }
  const counted = tokens.llm.n > 0 ? tokens.llm : tokens.exchange;
  const byType: Record<string, number> = {};
  for (const t of woType.values()) byType[t] = (byType[t] ?? 0) + 1;
  const byState: Record<string, number> = {};
  for (const s of woState.values()) byState[s] = (byState[s] ?? 0) + 1;
  const status = facts?.status ?? "active";
  const diagnostics: CpSessionOverview["diagnostics"] = {
    tokens: { input_total: counted.in, output_total: counted.out, grand_total: counted.in + counted.out, counted_from: tokens.llm.n > 0 ? "LLM_CALL" : tokens.exchange.n > 0 ? "EXCHANGE" : "none" },
    work_orders: { total: new Set([...woType.keys(), ...woState.keys()]).size, by_type: sortRecord(byType), by_state: sortRecord(byState) },
    tools: { total_calls: toolCalls, by_tool: sortRecord(tools) },
    quality_gates: gates,
    ledger_events: ledgerEvents,
  };
  const startedAt = facts?.started_at ?? text(events[0]!.entry.timestamp);
  const endedAt = facts?.ended_at ?? null;
  const durationSeconds = facts?.duration_seconds ?? null;
  const turnCount = facts?.turn_count ?? userMessages.length;
  const about = aboutSession({ firstUserMessage: userMessages[0] ?? null, turnCount, byType: diagnostics.work_orders.by_type, tools: diagnostics.tools.by_tool, errors, warnings, status, lastError: errors.at(-1) ?? null });
  return {
    status: "ok",
    summary: {
      session_id: sessionId,
      started_at: startedAt,
      ended_at: endedAt,
      duration: durationSeconds === null ? null : humanDuration(durationSeconds),
      turn_count: turnCount,
      status,
      about,
      top_user_messages: userMessages.slice(0, TOP_USER_MESSAGES).map((m) => preview(m)!),
      errors,
      warnings,
    },
    diagnostics,
  };
}

function sortRecord<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

const ABOUT_MESSAGE_CHARS = 120;

/**
 * The deterministic `about` paragraph (seed 004 "Adversarial Analysis" synthesis): what the user
 * started with, how many turns, what the work orders mostly were, which tools were used, the
 * error/warning count, and how the session ended (cleanly, on budget exhaustion, in an error,
 * or not yet). Plain sentences, no LLM; the same inputs always give the same text.
 */
export function aboutSession(f: {
  firstUserMessage: string | null;
  turnCount: number;
  byType: Record<string, number>;
  tools: Record<string, { called: number }>;
  errors: CpIssue[];
  warnings: CpIssue[];
  status: CpSessionRow["status"];
  lastError: CpIssue | null;
}): string {
  const parts: string[] = [];
  const first = f.firstUserMessage?.replace(/\s+/g, " ").trim();
  if (first) {
    const quoted = first.length > ABOUT_MESSAGE_CHARS ? `${first.slice(0, ABOUT_MESSAGE_CHARS)}…` : first;
    parts.push(`User started with "${quoted}" and the session ran ${f.turnCount} turn${f.turnCount === 1 ? "" : "s"}.`);
  } else {
    parts.push(f.turnCount === 0 ? "The session recorded no user turns." : `The session ran ${f.turnCount} turns without a user message.`);
  }
  const types = Object.entries(f.byType).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
  const totalWo = types.reduce((n, [, c]) => n + c, 0);
  if (totalWo > 0) {
    const [top, count] = types[0]!;
    // "Mostly" only for a strict leader; a tie lists the tied types (in name order).
    const tied = types.filter(([, c]) => c === count).map(([t]) => t);
    parts.push(
      types.length === 1
        ? `All ${totalWo} work order${totalWo === 1 ? " was" : "s were"} ${top}.`
        : tied.length > 1
          ? `Work was split between ${tied.slice(0, -1).join(", ")} and ${tied[tied.length - 1]} (${count} each of ${totalWo} work orders).`
          : `Work was mostly ${top} (${count} of ${totalWo} work orders).`,
    );
  }
  const tools = Object.entries(f.tools).sort(([a, x], [b, y]) => y.called - x.called || (a < b ? -1 : 1));
  parts.push(tools.length === 0 ? "No tools were called." : `Tools used: ${tools.map(([name, t]) => `${name} (${t.called}×)`).join(", ")}.`);
  const e = f.errors.length;
  const w = f.warnings.length;
  parts.push(e + w === 0 ? "No errors or warnings." : `${[e ? `${e} error${e === 1 ? "" : "s"}` : "", w ? `${w} warning${w === 1 ? "" : "s"}` : ""].filter(Boolean).join(" and ")} occurred.`);
  const budget = f.errors.some((x) => /budget_exhausted/i.test(`${x.type} ${x.message}`));
  if (f.status === "completed") parts.push(budget ? "Session ended after budget exhaustion." : "Session ended cleanly.");
  else if (f.status === "errored") parts.push(budget ? "Session ended on budget exhaustion." : `Session ended in an error${f.lastError ? ` (${f.lastError.type})` : ""}.`);
  else parts.push("Session has not ended (no SESSION_END).");
  return parts.join(" ");
}

// ---------------------------------------------------------------------------------------------
// reconstruct_session

export type CpReconstructInput = {
  session_id: string;
  limit: number;
  offset: number;
  max_bytes: number;
  verbosity: "compact" | "full";
  include_prompts: boolean;
  include_tool_payloads: boolean;
};


/** Prompt and conversation text: left out of `compact`, and of `full` unless `include_prompts` (prompts) applies. */
const PROMPT_FIELDS = new Set(["prompt", "response", "prompt_text", "response_text"]);
const CONVERSATION_FIELDS = new Set(["user_message", "content", "query_text", "result_text"]);
const TOOL_PAYLOAD_FIELDS = new Set(["arguments", "result"]);
const COMPACT_STRING_CHARS = 200;

function actorOf(e: CpEntry): string {
  if (e.entry.event_type === "TURN_RECORDED") return "user";
  const meta = metadataOf(e.entry);
  const prov = isObject(meta.provenance) ? meta.provenance : {};
  return text(prov.agent_id) ?? text(meta.agent_id) ?? DEFAULT_ACTOR[e.source] ?? e.source;
}

/**
 * A timeline row's payload. `compact`: `decision`, `reason` and the metadata's scalar summary
 * fields (numbers, booleans, strings ≤ 200 chars) — never prompt, response or message text, nor
 * nested objects. `full`: `decision`, `reason` and the whole metadata, minus prompt/response text
 * unless `include_prompts`, minus TOOL_CALL `arguments`/`result` unless `include_tool_payloads`
 * (the conversation's own `user_message`/`response` on TURN_RECORDED is kept in `full`).
 */
function payloadOf(e: CpEntry, input: CpReconstructInput): JsonObject {
  const meta = metadataOf(e.entry);
  const out: JsonObject = { decision: e.entry.decision ?? null, reason: e.entry.reason ?? null };
  const isTurn = e.entry.event_type === "TURN_RECORDED";
  for (const [key, value] of Object.entries(meta)) {
    if (input.verbosity === "compact") {
      if (PROMPT_FIELDS.has(key) || CONVERSATION_FIELDS.has(key) || TOOL_PAYLOAD_FIELDS.has(key)) continue;
      if (typeof value === "string" && value.length > COMPACT_STRING_CHARS) continue;
      if (typeof value === "object" && value !== null) continue;
      out[key] = value;
      continue;
    }
    if (PROMPT_FIELDS.has(key) && !input.include_prompts && !(isTurn && key === "response")) continue;
    if (TOOL_PAYLOAD_FIELDS.has(key) && e.entry.event_type === "TOOL_CALL" && !input.include_tool_payloads) continue;
    out[key] = value;
  }
  return out;
}


export async function cpReconstructSession(layout: ControlPlaneLayout, input: CpReconstructInput): Promise<CpReconstructResult | CpErrorResult> {
  const events = await sessionEvents(layout, input.session_id);
  if (events.length === 0) return unknownSession(input.session_id);
  const timeline: CpTimelineRow[] = events.slice(input.offset, input.offset + input.limit).map((e) => {
    const meta = metadataOf(e.entry);
    return {
      timestamp: text(e.entry.timestamp),
      source: e.source,
      event_type: String(e.entry.event_type ?? ""),
      actor: actorOf(e),
      turn_number: typeof meta.turn_number === "number" ? meta.turn_number : null,
      wo_id: workOrderIdOf(e.entry),
      entry_id: text(e.entry.id),
      file: e.file,
      line: e.line,
      payload: payloadOf(e, input),
    };
  });
  const result: CpReconstructResult = { status: "ok", session_id: input.session_id, event_count: events.length, returned: timeline.length, offset: input.offset, truncated: false, timeline };
  const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v), "utf8");
  if (bytes(result) <= input.max_bytes) return result;
  // Keep the longest prefix that fits: the envelope's size for k rows plus the rows and commas.
  const rowBytes = timeline.map(bytes);
  let sum = rowBytes.reduce((a, b) => a + b, 0);
  let k = timeline.length;
  const envelope = (n: number) => bytes({ ...result, truncated: true, returned: n, timeline: [] });
  while (k > 0 && envelope(k) + sum + (k - 1) > input.max_bytes) {
    k -= 1;
    sum -= rowBytes[k]!;
  }
  return { ...result, truncated: true, returned: k, timeline: timeline.slice(0, k) };
}

// ---------------------------------------------------------------------------------------------
// query_ledger_full and grep_jsonl

function unknownLedger(layout: ControlPlaneLayout, name: string): CpErrorResult {
  return { status: "error", error: `unknown ledger '${name}'`, hint: `use one of: ${layout.ledgers.map((l) => l.id).join(", ")}` };
}

/**
 * `query_ledger_full` (seed 004 §3.4): one ledger's entries (default `governance`), optionally
 * only `event_type`, paginated by `offset`/`max_entries`, each with its FULL `metadata` object and
 * full `reason` (the older `query_ledger` gave only metadata keys). Entries of the per-session
 * schema (no `metadata`) carry their remaining fields as `metadata`. Unknown ledger → `status:"error"`.
 */
export async function cpQueryLedgerFull(layout: ControlPlaneLayout, input: { ledger: string; event_type?: string; max_entries: number; offset: number }) {
  const ledger = findLedger(layout, input.ledger);
  if (!ledger) return unknownLedger(layout, input.ledger);
  const all = (await readLedgerEntries(ledger)).entries.filter((e) => input.event_type === undefined || e.entry.event_type === input.event_type);
  const entries = all.slice(input.offset, input.offset + input.max_entries).map((e) => {
    const { id, event_type, submission_id, decision, reason, timestamp, metadata, ...rest } = e.entry;
    return {
      id: id ?? null,
      event_type: event_type ?? null,
      submission_id: submission_id ?? null,
      decision: decision ?? null,
      reason: reason ?? null,
      timestamp: timestamp ?? null,
      metadata: isObject(metadata) ? metadata : rest,
      file: e.file,
      line_number: e.line,
    };
  });
  return { status: "ok" as const, source: ledger.id, count: entries.length, total: all.length, offset: input.offset, entries };
}

/**
 * `grep_jsonl` (seed 004 §3.5): a regular expression (JavaScript syntax, case-sensitive) applied
 * to each raw line of one ledger (every segment); matching lines with their line numbers and raw
 * text, paginated by `offset`/`limit`; `count` is the rows returned, `total_matches` all matches.
 * Unknown ledger → `status:"error"`; a pattern that does not compile → `status:"invalid"`.
 */
export async function cpGrepJsonl(layout: ControlPlaneLayout, input: { ledger: string; pattern: string; limit: number; offset: number }) {
  const ledger = findLedger(layout, input.ledger);
  if (!ledger) return unknownLedger(layout, input.ledger);
  let re: RegExp;
  try {
    re = new RegExp(input.pattern, "u");
  } catch (error) {
    return { status: "invalid" as const, errors: [{ field: "pattern", message: (error as Error).message, hint: "a JavaScript regular expression, e.g. budget_exhausted|DEGRADATION" }] };
  }
  const matches: { file: string; line_number: number; raw: string }[] = [];
  let total = 0;
  for (const segment of ledger.segments) {
    await forEachLedgerLine(segment, (l) => {
      if (!re.test(l.text)) return;
      total += 1;
      if (total > input.offset && matches.length < input.limit) matches.push({ file: path.basename(segment), line_number: l.line, raw: l.text });
    });
  }
  return { status: "ok" as const, source: ledger.id, pattern: input.pattern, count: matches.length, total_matches: total, offset: input.offset, entries: matches };
}
