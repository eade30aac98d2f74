/** Seed 004's forensic tools over Control Plane ledgers: the seed's test plan and the real corpus. */
/**
 * Seed 004's test plan (§6: six test classes, 25 tests) against Control Plane ledgers built in the
 * test with the LedgerClient serialization (so their hashes verify), plus the real corpus root.
 */
import fs from "node:fs/promises";
import path from "node:path";

import { beforeAll, describe, expect, it } from "vitest";

import { type CoreContext, createCoreContext } from "@/lib/context";
import { discoverControlPlane, type ControlPlaneLayout } from "@/lib/sources/control-plane/discover";
import { CP_FORENSIC_TOOL_NAMES } from "@/lib/sources/control-plane/dispatch";
import { cpGrepJsonl, cpListSessions, cpQueryLedgerFull, cpReconstructSession, cpSessionOverview, type CpReconstructInput, type CpSessionOverview } from "@/lib/sources/control-plane/forensics";
import { registerControlPlaneRoots } from "@/lib/sources/control-plane/projects";
import { pyFloat } from "@/lib/json/python-json";
import { verifyControlPlane } from "@/lib/sources/control-plane/verify";
import { cpTime, mergeScripts, scriptSession, serializeLedger, writeControlPlaneRoot, writeRotatedLedger } from "@/lib/testing/control-plane-builder";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { callTool, TOOLS } from "@/lib/tools/registry";
import { prepareWorkspace } from "@/lib/workspace/prepare";

const A = "SES-AAAA0001";
const B = "SES-BBBB0002";

async function rootWith(spec: Parameters<typeof writeControlPlaneRoot>[1]): Promise<ControlPlaneLayout> {
  const dir = await makeTempDir("casefile-cp-");
  await writeControlPlaneRoot(dir, spec);
  return discoverControlPlane(dir);
}

const reconstructDefaults = (session_id: string): CpReconstructInput => ({ session_id, limit: 100, offset: 0, max_bytes: 50_000, verbosity: "compact", include_prompts: false, include_tool_payloads: true });

let layout: ControlPlaneLayout;
/** A workspace with `layout`'s root registered (casefile prepare --control-plane), for calls through the registry. */
let ctx: CoreContext;
let projectKey: string;
/** One call of a registered tool on the registered root, as MCP/HTTP/CLI make it. */
const viaRegistry = (name: string, input: object) => callTool(ctx, name, { project_key: projectKey, ...input }, { door: "cli" }) as Promise<Record<string, unknown>>;

beforeAll(async () => {
  const a = scriptSession({
    sessionId: A,
    start: 0,
    budgetWarning: "Budget low: 1200 remaining",
    turns: [
      { user: "what frameworks are installed?", response: "FMWK-000 and FMWK-001.", woType: "classify", tool: { id: "list_frameworks", ok: true }, tokens: { input: 500, output: 200 }, gate: "ACCEPT" },
      { user: "show me turn events", response: "Here are the TURN_RECORDED events.", woType: "synthesize", tool: { id: "query_ledger", ok: true }, tokens: { input: 700, output: 300 }, gate: "ACCEPT" },
      { user: "read the kernel", response: "Failed.", woType: "synthesize", tool: { id: "read_file", ok: false }, tokens: { input: 300, output: 50 }, failed: "tool_error", gate: "REJECT" },
    ],
    end: "clean",
  });
  const b = scriptSession({ sessionId: B, start: 1000, turns: [{ user: "hello", response: "Hi!" }], end: "none" });
  layout = await rootWith(mergeScripts(a, b));
  ctx = createCoreContext(await makeTempDir("casefile-cp-ws-"));
  await prepareWorkspace(ctx, { claudeRoots: [], codexRoots: [] });
  projectKey = (await registerControlPlaneRoots(ctx, [layout.root])).projects[0]!.project_key;
});

describe("TestListSessions", () => {
  it("test_list_sessions_returns_sessions", async () => {
    const r = await cpListSessions(layout, { limit: 20, offset: 0 });
    expect(r.status).toBe("ok");
    expect(r.sessions.map((s) => s.session_id)).toEqual([A, B]);
  });
  it("test_list_sessions_includes_turn_count", async () => {
    expect((await cpListSessions(layout, { limit: 20, offset: 0 })).sessions[0]!.turn_count).toBe(3);
  });
  it("test_list_sessions_status_completed", async () => {
    const s = (await cpListSessions(layout, { limit: 20, offset: 0 })).sessions[0]!;
    expect(s).toMatchObject({ status: "completed", started_at: cpTime(0) });
    expect(s.ended_at).not.toBeNull();
    expect(s.duration_seconds).toBeGreaterThan(0);
  });
  it("test_list_sessions_status_active", async () => {
    expect((await cpListSessions(layout, { limit: 20, offset: 0 })).sessions[1]).toMatchObject({ session_id: B, status: "active", ended_at: null });
  });
  it("test_list_sessions_pagination", async () => {
    const five = await rootWith(mergeScripts(...[1, 2, 3, 4, 5].map((n) => scriptSession({ sessionId: `SES-0000000${n}`, start: n * 100, turns: [{ user: `q${n}`, response: "r" }] }))));
    const r = await cpListSessions(five, { limit: 2, offset: 2 });
    expect(r.sessions.map((s) => s.session_id)).toEqual(["SES-00000003", "SES-00000004"]);
    expect(r).toMatchObject({ count: 2, total: 5 });
  });
  it("test_list_sessions_first_message_preview", async () => {
    const [a, b] = (await cpListSessions(layout, { limit: 20, offset: 0 })).sessions;
    expect(a).toMatchObject({ first_user_message: "what frameworks are installed?", last_response_preview: "Failed." });
    expect(b!.first_user_message).toBe("hello");
  });
  it("status errored when the last event is DEGRADATION", async () => {
    const degraded = await rootWith(scriptSession({ sessionId: A, start: 0, turns: [{ user: "go", response: "no" }], end: "degraded" }));
    expect((await cpListSessions(degraded, { limit: 20, offset: 0 })).sessions[0]!.status).toBe("errored");
  });
});

describe("TestSessionOverview", () => {
  const overview = async (id = A) => (await cpSessionOverview(layout, id)) as CpSessionOverview;
  it("test_overview_human_summary", async () => {
    const r = await overview();
    expect(Object.keys(r)).toEqual(["status", "summary", "diagnostics"]);
    expect(r.summary.about).toBe(
      'User started with "what frameworks are installed?" and the session ran 3 turns. Work was mostly synthesize (2 of 3 work orders). Tools used: list_frameworks (1×), query_ledger (1×), read_file (1×). 1 error and 1 warning occurred. Session ended cleanly.',
    );
    expect(r.summary.top_user_messages).toEqual(["what frameworks are installed?", "show me turn events", "read the kernel"]);
    expect(r.summary.warnings).toMatchObject([{ type: "budget_warning", message: "Budget low: 1200 remaining" }]);
  });
  it("a tie between work-order types is not called 'mostly'", async () => {
    const tie = await rootWith(scriptSession({ sessionId: A, start: 0, turns: [{ user: "a", response: "b", woType: "classify" }, { user: "c", response: "d", woType: "synthesize" }] }));
    expect(((await cpSessionOverview(tie, A)) as CpSessionOverview).summary.about).toContain("Work was split between classify and synthesize (1 each of 2 work orders).");
  });
  it("test_overview_about_field_deterministic", async () => {
    expect((await overview()).summary.about).toBe((await overview()).summary.about);
  });
  it("test_overview_includes_errors", async () => {
    const degraded = await rootWith(scriptSession({ sessionId: A, start: 0, turns: [{ user: "go", response: "no" }], end: "degraded" }));
    const r = (await cpSessionOverview(degraded, A)) as CpSessionOverview;
    expect(r.summary.errors.map((e) => e.type)).toEqual(["budget_exhausted"]);
    expect(r.summary.about).toMatch(/Session ended on budget exhaustion\.$/);
  });
  it("test_overview_token_totals", async () => {
    expect((await overview()).diagnostics.tokens).toEqual({ input_total: 1500, output_total: 550, grand_total: 2050, counted_from: "LLM_CALL" });
  });
  it("test_overview_tool_counts", async () => {
    const tools = (await overview()).diagnostics.tools;
    expect(tools.total_calls).toBe(3);
    expect(tools.by_tool.read_file).toEqual({ called: 1, succeeded: 0, failed: 1 });
  });
  it("test_overview_wo_by_state", async () => {
    const d = (await overview()).diagnostics;
    expect(d.work_orders).toEqual({ total: 3, by_type: { classify: 1, synthesize: 2 }, by_state: { completed: 2, failed: 1 } });
    expect(d.quality_gates).toEqual({ passed: 2, rejected: 1 });
    expect(d.ledger_events).toEqual({ ho2m: 14, ho1m: 12, governance: 7 });
  });
  it("test_overview_unknown_session", async () => {
    expect(await cpSessionOverview(layout, "SES-NOPE0000")).toMatchObject({ status: "error" });
  });
});

describe("TestReconstructSession", () => {
  it("test_reconstruct_chronological_order", async () => {
    const r = await cpReconstructSession(layout, reconstructDefaults(A));
    if (r.status !== "ok") throw new Error("expected ok");
    const stamps = r.timeline.map((row) => row.timestamp!);
    expect(stamps).toEqual([...stamps].sort());
    // Same-second tie: ho2m before ho1m before governance.
    const order = { ho2m: 0, ho1m: 1, governance: 2 } as Record<string, number>;
    for (let i = 1; i < r.timeline.length; i += 1) {
      if (r.timeline[i]!.timestamp === r.timeline[i - 1]!.timestamp) expect(order[r.timeline[i]!.source]!).toBeGreaterThanOrEqual(order[r.timeline[i - 1]!.source]!);
    }
    expect(r.timeline[0]).toMatchObject({ source: "ho2m", event_type: "SESSION_START" });
  });
  it("correlates entries by the §3.3 rule: each session-id field, a WO-<session>- id, and nothing else", async () => {
    const t = (n: number) => cpTime(n);
    const root = await rootWith({
      ho2m: [{ event_type: "SESSION_START", submission_id: A, decision: "STARTED", metadata: {}, timestamp: t(0) }],
      ho1m: [
        { event_type: "WO_EXECUTING", submission_id: `WO-${A}-001`, decision: "WO_EXECUTING", reason: "by submission_id", timestamp: t(1) },
        { event_type: "LLM_CALL", submission_id: "X", decision: "LLM_CALL", reason: "by provenance.work_order_id", metadata: { provenance: { work_order_id: `WO-${A}-002` } }, timestamp: t(2) },
        { event_type: "WO_COMPLETED", submission_id: "X", decision: "WO_COMPLETED", reason: "other session's WO", metadata: { wo_id: `WO-${B}-001` }, timestamp: t(3) },
      ],
      governance: [
        { event_type: "EXCHANGE", submission_id: "PRC-1", decision: "SUCCESS", reason: "by metadata.session_id", metadata: { session_id: A }, timestamp: t(4) },
        { event_type: "BUDGET_DEBIT", submission_id: "PRC-1", decision: "DEBIT", reason: "by the tier stamp _session_id", metadata: { _session_id: A }, timestamp: t(5) },
        { event_type: "INSTALLED", submission_id: "PKG-1", decision: "COMPLETED", reason: "no session", metadata: {}, timestamp: t(6) },
        { event_type: "EXCHANGE", submission_id: "PRC-1", decision: "SUCCESS", reason: "session_id wins over a WO id", metadata: { session_id: B, work_order_id: `WO-${B}-009` }, timestamp: t(7) },
      ],
    });
    const r = await cpReconstructSession(root, { ...reconstructDefaults(A), verbosity: "full" });
    if (r.status !== "ok") throw new Error("expected ok");
    expect(r.timeline.map((row) => `${row.source}:${row.event_type}`)).toEqual(["ho2m:SESSION_START", "ho1m:WO_EXECUTING", "ho1m:LLM_CALL", "governance:EXCHANGE", "governance:BUDGET_DEBIT"]);
  });
  it("test_reconstruct_includes_source", async () => {
    const r = await cpReconstructSession(layout, reconstructDefaults(A));
    if (r.status !== "ok") throw new Error("expected ok");
    expect(new Set(r.timeline.map((row) => row.source))).toEqual(new Set(["ho2m", "ho1m", "governance"]));
  });
  it("test_reconstruct_compact_mode", async () => {
    const text = JSON.stringify(await cpReconstructSession(layout, reconstructDefaults(A)));
    expect(text).not.toContain("PROMPT: ");
    expect(text).not.toContain("RESPONSE: ");
    expect(text).not.toContain("what frameworks are installed?");
  });
  it("test_reconstruct_full_mode", async () => {
    const text = JSON.stringify(await cpReconstructSession(layout, { ...reconstructDefaults(A), verbosity: "full", include_prompts: true }));
    expect(text).toContain("PROMPT: what frameworks are installed?");
    expect(text).toContain("RESPONSE: FMWK-000 and FMWK-001.");
    const noPrompts = JSON.stringify(await cpReconstructSession(layout, { ...reconstructDefaults(A), verbosity: "full", include_tool_payloads: false }));
    expect(noPrompts).not.toContain("PROMPT: ");
    expect(noPrompts).not.toContain('"arguments"');
  });
  it("test_reconstruct_pagination", async () => {
    const many = await rootWith(scriptSession({ sessionId: A, start: 0, turns: Array.from({ length: 6 }, (_, i) => ({ user: `q${i}`, response: "r" })) }));
    const r = await cpReconstructSession(many, { ...reconstructDefaults(A), limit: 10 });
    if (r.status !== "ok") throw new Error("expected ok");
    expect(r.event_count).toBe(2 + 6 * 8);
    expect(r.returned).toBe(10);
    const next = await cpReconstructSession(many, { ...reconstructDefaults(A), limit: 10, offset: 10 });
    if (next.status !== "ok") throw new Error("expected ok");
    expect(next.timeline[0]!.entry_id).not.toBe(r.timeline[9]!.entry_id);
  });
  it("test_reconstruct_max_bytes_cap", async () => {
    const r = await cpReconstructSession(layout, { ...reconstructDefaults(A), max_bytes: 100 });
    expect(r).toMatchObject({ status: "ok", truncated: true, returned: 0 });
    const mid = await cpReconstructSession(layout, { ...reconstructDefaults(A), max_bytes: 3000 });
    if (mid.status !== "ok") throw new Error("expected ok");
    expect(mid.truncated).toBe(true);
    expect(mid.returned).toBeGreaterThan(0);
    expect(Buffer.byteLength(JSON.stringify(mid))).toBeLessThanOrEqual(3000);
    // The registered tool takes the seed's max_bytes=100 too.
    expect(await viaRegistry("reconstruct_session", { session_ref: A, max_bytes: 100 })).toMatchObject({ status: "ok", source_kind: "control-plane", truncated: true, returned: 0 });
  });
});

describe("TestQueryLedgerFull", () => {
  it("test_full_returns_metadata", async () => {
    const r = await cpQueryLedgerFull(layout, { ledger: "governance", event_type: "EXCHANGE", max_entries: 10, offset: 0 });
    if (r.status !== "ok") throw new Error("expected ok");
    expect(r.entries[0]!.metadata).toMatchObject({ prompt: "PROMPT: what frameworks are installed?", input_tokens: 500, outcome: "success" });
  });
  it("test_full_pagination", async () => {
    const entries = Array.from({ length: 20 }, (_, i) => ({ event_type: "EXCHANGE", submission_id: "PRC-1", decision: "SUCCESS", reason: `entry ${i + 1}`, metadata: { n: i + 1 }, timestamp: cpTime(i) }));
    const r = await cpQueryLedgerFull(await rootWith({ governance: entries }), { ledger: "governance", max_entries: 3, offset: 5 });
    if (r.status !== "ok") throw new Error("expected ok");
    expect(r.entries.map((e) => e.reason)).toEqual(["entry 6", "entry 7", "entry 8"]);
  });
  it("test_full_default_governance", async () => {
    // No ledger param, through the registered tool: the project's governance ledger (not Casefile's audit ledger).
    const r = await viaRegistry("query_ledger_full", { max_entries: 100 });
    expect(r).toMatchObject({ status: "ok", source_kind: "control-plane", source: "governance", count: 9 });
    expect((r.entries as { event_type: string }[]).map((e) => e.event_type)).toContain("EXCHANGE");
    // An explicit "audit" stays Casefile's own call record.
    expect(await viaRegistry("query_ledger_full", { ledger: "audit" })).toMatchObject({ status: "ok", ledger: "audit" });
  });
});

describe("TestGrepJsonl", () => {
  it("test_grep_finds_matching_lines", async () => {
    // Session A's three turns (B's one turn does not match).
    const r = await cpGrepJsonl(layout, { ledger: "ho2m", pattern: `"TURN_RECORDED".*"session_id": "${A}"`, limit: 20, offset: 0 });
    if (r.status !== "ok") throw new Error("expected ok");
    expect(r.count).toBe(3);
    const file = (await fs.readFile(path.join(layout.root, "HO2", "ledger", "ho2m.jsonl"), "utf8")).split("\n");
    const expected = file.flatMap((l, i) => (l.includes('"TURN_RECORDED"') && l.includes(A) ? [i + 1] : []));
    expect(r.entries.map((e) => e.line_number)).toEqual(expected);
  });
  it("test_grep_returns_raw_json", async () => {
    const r = await cpGrepJsonl(layout, { ledger: "ho2m", pattern: "SESSION_END", limit: 20, offset: 0 });
    if (r.status !== "ok") throw new Error("expected ok");
    const file = await fs.readFile(path.join(layout.root, "HO2", "ledger", "ho2m.jsonl"), "utf8");
    expect(file.split("\n")[r.entries[0]!.line_number - 1]).toBe(r.entries[0]!.raw);
  });
  it("test_grep_invalid_ledger", async () => {
    expect(await cpGrepJsonl(layout, { ledger: "nope", pattern: "x", limit: 20, offset: 0 })).toMatchObject({ status: "error" });
  });
  it("test_grep_no_matches", async () => {
    expect(await cpGrepJsonl(layout, { ledger: "ho1m", pattern: "no-such-text", limit: 20, offset: 0 })).toMatchObject({ status: "ok", count: 0, entries: [] });
  });
});

describe("TestForensicToolsInConfig", () => {
  it("test_all_forensic_tools_in_config", async () => {
    // Casefile's "admin_config.json tools array" is the registry: all five are registered agent tools
    // (MCP, HTTP, CLI) and each dispatches to the Control Plane source for this project.
    expect([...CP_FORENSIC_TOOL_NAMES].sort()).toEqual(["grep_jsonl", "list_sessions", "query_ledger_full", "reconstruct_session", "session_overview"]);
    for (const name of CP_FORENSIC_TOOL_NAMES) {
      expect(TOOLS.find((t) => t.name === name), name).toMatchObject({ audience: "agent", readOnly: true });
    }
    const inputs: Record<(typeof CP_FORENSIC_TOOL_NAMES)[number], object> = {
      list_sessions: {},
      session_overview: { session_ref: A },
      reconstruct_session: { session_ref: A },
      query_ledger_full: {},
      grep_jsonl: { ledger: "governance", pattern: "EXCHANGE" },
    };
    for (const name of CP_FORENSIC_TOOL_NAMES) {
      expect(await viaRegistry(name, inputs[name]), name).toMatchObject({ status: "ok", source_kind: "control-plane", project_key: projectKey });
    }
  });
});

describe("the test ledgers are what Control Plane's LedgerClient writes", () => {
  // Printed by CPython 3 (json.dumps(entry, ensure_ascii=False), entry_hash = sha256 of
  // json.dumps(entry without it, sort_keys=True, ensure_ascii=False)): an independent anchor
  // for the builder, so the seed tests above run on ledgers Python would have written.
  const PYTHON_LINES = [
    "{\"event_type\": \"LLM_CALL\", \"submission_id\": \"WO-SES-AAAA0001-001\", \"decision\": \"LLM_CALL\", \"reason\": \"h\u00e9llo \u2713 \u2028\", \"prompts_used\": [], \"metadata\": {\"latency_ms\": 12.0, \"input_tokens\": 500, \"ratio\": 0.1, \"big\": 1e+16, \"tiny\": 2.5e-05, \"note\": \"na\u00efve \\\"q\\\"\\n\\t\\u0001\", \"nested\": {\"z\": [1, 2.5, null, true], \"a\": \"\ud83d\ude00\"}}, \"id\": \"LED-0000abc0\", \"timestamp\": \"2026-02-17T14:30:00.000000+00:00\", \"previous_hash\": \"\", \"entry_hash\": \"7f8a9a786340d1b2aeef86c6cb58c07c8ffae47b099e79c386a617cb938357fb\"}",
    "{\"event_type\": \"LLM_CALL\", \"submission_id\": \"WO-SES-AAAA0001-001\", \"decision\": \"LLM_CALL\", \"reason\": \"second\", \"prompts_used\": [], \"metadata\": {\"cost\": 0.0}, \"id\": \"LED-0000abc1\", \"timestamp\": \"2026-02-17T14:30:01.000000+00:00\", \"previous_hash\": \"7f8a9a786340d1b2aeef86c6cb58c07c8ffae47b099e79c386a617cb938357fb\", \"entry_hash\": \"6910fd26342721e8020949533529f579f5a47050a8083345bff52e77ce26ce69\"}",
  ];
  it("serializeLedger writes byte for byte what Python writes, hashes included", () => {
    const { text, hashes } = serializeLedger([
      {
        event_type: "LLM_CALL",
        submission_id: "WO-SES-AAAA0001-001",
        decision: "LLM_CALL",
        reason: "h\u00e9llo \u2713 \u2028",
        metadata: { latency_ms: pyFloat(12), input_tokens: 500, ratio: 0.1, big: pyFloat(1e16), tiny: 2.5e-5, note: 'na\u00efve "q"\n\t\u0001', nested: { z: [1, 2.5, null, true], a: "\u{1F600}" } },
        id: "LED-0000abc0",
        timestamp: "2026-02-17T14:30:00.000000+00:00",
      },
      { event_type: "LLM_CALL", submission_id: "WO-SES-AAAA0001-001", decision: "LLM_CALL", reason: "second", metadata: { cost: pyFloat(0) }, id: "LED-0000abc1", timestamp: "2026-02-17T14:30:01.000000+00:00" },
    ]);
    expect(text).toBe(PYTHON_LINES.map((l) => `${l}\n`).join(""));
    expect(hashes).toEqual(["7f8a9a786340d1b2aeef86c6cb58c07c8ffae47b099e79c386a617cb938357fb", "6910fd26342721e8020949533529f579f5a47050a8083345bff52e77ce26ce69"]);
  });
});

describe("integrity of built ledgers", () => {
  it("ledgers written with the LedgerClient serialization verify, floats included", async () => {
    const results = await verifyControlPlane(layout);
    expect(results.map((r) => [r.ledger, r.status, r.error_count])).toEqual([
      ["governance", "ok", 0],
      ["ho2m", "ok", 0],
      ["ho1m", "ok", 0],
    ]);
    expect(await fs.readFile(path.join(layout.root, "HO1", "ledger", "ho1m.jsonl"), "utf8")).toContain('"latency_ms": 12.0');
  });
  it("rotated segments: cross-segment links and Merkle roots against index.jsonl; a tampered rollup is reported", async () => {
    const dir = await makeTempDir("casefile-cp-rot-");
    const seg = (n: number) => Array.from({ length: 3 }, (_, i) => ({ event_type: "EXCHANGE", submission_id: "P", decision: "SUCCESS", reason: `s${n}e${i}`, timestamp: cpTime(n * 10 + i) }));
    await writeRotatedLedger(path.join(dir, "HOT", "ledger"), "governance", [{ stamp: "20260216-000000", entries: seg(0) }, { stamp: "20260217-000000", entries: seg(1) }, { stamp: null, entries: seg(2) }]);
    const ok = (await verifyControlPlane(await discoverControlPlane(dir)))[0]!;
    expect(ok).toMatchObject({ status: "ok", hashed: 9, verified: 9 });
    expect(ok.segments.map((s) => s.index)).toEqual(["match", "match", "absent"]);
    const indexPath = path.join(dir, "HOT", "ledger", "index.jsonl");
    const index = await fs.readFile(indexPath, "utf8");
    await fs.writeFile(indexPath, index.replace(/"merkle_root":"(.)/, (_m, c: string) => `"merkle_root":"${c === "a" ? "b" : "a"}`));
    const bad = (await verifyControlPlane(await discoverControlPlane(dir)))[0]!;
    expect(bad.first_broken).toMatchObject({ kind: "index_mismatch", file: "governance-20260216-000000.jsonl" });
  });
});

describe.skipIf(!HAS_SHARED)(`the real corpus root ${HAS_SHARED ? "" : SKIP_SHARED_MESSAGE}`, () => {
  const root = path.join(SHARED_DIR, "corpus", "control-plane", "rabruni__Brain_Garden", "Control_Plane_v2");
  it("has no ho2m.jsonl, so no session; its governance ledger is queryable and greppable with full metadata", async () => {
    const real = await discoverControlPlane(root);
    expect(await cpListSessions(real, { limit: 20, offset: 0 })).toMatchObject({ status: "ok", count: 0, total: 0 });
    const q = await cpQueryLedgerFull(real, { ledger: "governance", event_type: "INSTALLED", max_entries: 500, offset: 0 });
    if (q.status !== "ok") throw new Error("expected ok");
    expect(q.total).toBeGreaterThan(0);
    expect(typeof q.entries[0]!.metadata).toBe("object");
    const g = await cpGrepJsonl(real, { ledger: "governance", pattern: "\"event_type\": \"GENESIS\"|bootstrap_mode_used", limit: 500, offset: 0 });
    if (g.status !== "ok") throw new Error("expected ok");
    expect(g.total_matches).toBeGreaterThan(0);
    const exec = await cpQueryLedgerFull(real, { ledger: "SES-20260207-raymondbruni-fee74d2a/exec", max_entries: 10, offset: 0 });
    expect(exec).toMatchObject({ status: "ok", count: 3 });
  });
});
