/** The forensic tools (session_overview, reconstruct_session, grep_jsonl) over the corpus. */
import { execFileSync } from "node:child_process";
import path from "node:path";

import { beforeAll, describe, expect, it } from "vitest";

import { analyzeSessionFile } from "@/lib/analysis/analyze-file";
import { createCoreContext, type CoreContext } from "@/lib/context";
import { chainForTurn } from "@/lib/evidence/__fixtures__/chains";
import { grepJsonl } from "@/lib/forensics/grep";
import { sessionOverview } from "@/lib/forensics/overview";
import { reconstructSession } from "@/lib/forensics/reconstruct";
import { grepJsonlInputSchema, reconstructSessionInputSchema, sessionLedgerInputSchema, type GrepJsonlResult, type SessionOverviewResult, type ReconstructSessionResult, type TimelineRow } from "@/lib/forensics/schema";
import { querySessionLedger, type SessionLedgerPage } from "@/lib/forensics/session-ledgers";
import { getLedger } from "@/lib/ledger/ledger-store";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { callTool, TOOLS } from "@/lib/tools/registry";
import { listSessions } from "@/lib/forensics/__fixtures__/list-sessions";
import { loadWorkspace } from "@/lib/workspace/load";
import type { ListSessionsResult } from "@/lib/workspace/schema";
import { prepareWorkspace } from "@/lib/workspace/prepare";
import { sessionAuditEvents, UNLISTED_AUDIT_TOOLS } from "@/lib/ledger/session-audit";

const NOW = () => new Date("2026-11-21T10:00:00Z");

/** The three shapes seed 004's test plan is run on: both Claude Code directory eras and Codex. */
const SESSIONS = {
  era1: "2caf2337-66bf-41d1-ad27-9d2cab7bd2dc", // 2.0.60: flat agent-*.jsonl beside the session
  era2: "c172889a-aa67-452b-b5c9-81f1e500de7d", // 2.1.3: <id>/subagents and <id>/tool-results
  codex: "019e1625-789d-76c0-80ab-3724b5ddb799",
} as const;

type Ref = { project_key: string; session_ref: string; dir: string; sessionPath: string };

describe.skipIf(!HAS_SHARED)(`forensics tools on real corpus sessions${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  let ctx: CoreContext;
  const refs = {} as Record<keyof typeof SESSIONS, Ref>;

  beforeAll(async () => {
    ctx = createCoreContext(await makeTempDir(), { now: NOW });
    await prepareWorkspace(ctx, { claudeRoots: [path.join(SHARED_DIR, "corpus", "claude-code")], codexRoots: [path.join(SHARED_DIR, "corpus", "codex")] });
    const ws = await loadWorkspace(ctx);
    for (const [name, id] of Object.entries(SESSIONS) as [keyof typeof SESSIONS, string][]) {
      for (const p of ws.projects) {
        const row = p.rows.find((r) => r.source_session_id === id);
        if (row) refs[name] = { project_key: p.projectKey, session_ref: row.session_ref, dir: p.dir, sessionPath: row.session_path };
      }
      expect(refs[name], name).toBeDefined();
    }
  });

  const overview = async (name: keyof typeof SESSIONS) => (await sessionOverview(ctx, { project_key: refs[name].project_key, session_ref: refs[name].session_ref }, sessionAuditEvents)) as SessionOverviewResult;
  const reconstruct = async (name: keyof typeof SESSIONS, over: Record<string, unknown> = {}) =>
    (await reconstructSession(ctx, reconstructSessionInputSchema.parse({ project_key: refs[name].project_key, session_ref: refs[name].session_ref, ...over }), sessionAuditEvents)) as ReconstructSessionResult;
  const grep = async (over: Record<string, unknown>) => (await grepJsonl(ctx, grepJsonlInputSchema.parse(over))) as GrepJsonlResult;

  it("registers the three read-only tools", () => {
    for (const name of ["session_overview", "reconstruct_session", "grep_jsonl"]) {
      const tool = TOOLS.find((t) => t.name === name);
      expect(tool?.readOnly, name).toBe(true);
    }
  });

  describe("session_overview", () => {
    it.each(Object.keys(SESSIONS) as (keyof typeof SESSIONS)[])("%s: summary first, a deterministic about, consistent diagnostics", async (name) => {
      const first = await overview(name);
      const second = await overview(name);
      expect(JSON.stringify(second)).toBe(JSON.stringify(first));
      expect(Object.keys(first)).toEqual(["status", "summary", "diagnostics"]);
      expect(Object.keys(first.summary).slice(0, 10)).toContain("about");
      const { summary, diagnostics } = first;
      expect(summary.about).toMatch(/^User asked: ".+"/);
      expect(summary.about).toMatch(/Session ended/);
      expect(summary.top_user_messages.length).toBeGreaterThan(0);
      expect(summary.duration).toMatch(/^\d+ (second|minute|hour|day)/);
      const byTool = Object.values(diagnostics.tools.by_tool);
      expect(byTool.reduce((n, c) => n + c.called, 0)).toBe(diagnostics.tools.total_calls);
      expect(byTool.reduce((n, c) => n + c.failed, 0)).toBeLessThanOrEqual(diagnostics.tools.failed_calls);
      const t = diagnostics.tokens;
      expect(t.grand_total).toBe(t.input_total + t.output_total + t.cache_read_total + t.cache_creation_total);
      expect(t.output_total).toBeGreaterThan(0);
      const events = diagnostics.events;
      expect(events.total).toBe(events.main + events.subagent + events.tool_result + events.audit);
    });

    it("counts subagents and tool results of both eras, none for Codex", async () => {
      expect((await overview("era1")).diagnostics.subagents.count).toBe(3);
      const era2 = await overview("era2");
      expect(era2.diagnostics.subagents.count).toBe(4);
      expect(era2.diagnostics.events.tool_result).toBeGreaterThan(0);
      expect(era2.summary.about).toContain("4 subagent transcripts are attached");
      const codex = await overview("codex");
      expect(codex.diagnostics.subagents.count).toBe(0);
      expect(codex.diagnostics.events.subagent).toBe(0);
      expect(codex.summary.about).toMatch(/ran \d+ commands \(4 failed\)/);
    });

    it("finds the ending: a final agent reply is completed, unless the last record is recent", async () => {
      const done = await overview("codex");
      expect(done.summary.status).toBe("completed");
      expect(done.summary.about).toMatch(/Session ended cleanly with an agent reply\.$/);
      const fiveMinutesLater = Date.parse(done.summary.ended_at!) + 5 * 60_000;
      const recent = createCoreContext(ctx.workspaceRoot, { now: () => new Date(fiveMinutesLater) });
      const r = (await sessionOverview(recent, { project_key: refs.codex.project_key, session_ref: refs.codex.session_ref }, sessionAuditEvents)) as SessionOverviewResult;
      expect(r.summary.status).toBe("active");
      expect(r.summary.about).toContain("still active");
    });

    it("reports the context resets lib/analysis finds (seed 003) as warnings, on every corpus session", async () => {
      const ws = await loadWorkspace(ctx);
      let total = 0;
      for (const p of ws.projects) {
        for (const row of p.rows) {
          const o = (await sessionOverview(ctx, { project_key: p.projectKey, session_ref: row.session_ref }, sessionAuditEvents)) as SessionOverviewResult;
          const analysis = await analyzeSessionFile(path.join(p.dir, row.session_path), row.source);
          expect(o.summary.warning_counts.context_reset ?? 0, `${p.projectKey}/${row.session_ref}`).toBe(analysis.reset_count);
          expect(o.summary.warnings.filter((w) => w.type === "context_reset").map((w) => w.line)).toEqual(analysis.resets.map((r) => r.session_line));
          if (analysis.reset_count > 0) expect(o.summary.about).toMatch(/context resets?/);
          total += analysis.reset_count;
        }
      }
      expect(total).toBeGreaterThan(0);
    });

    it("returns invalid naming the field for an unknown session or project", async () => {
      expect(await sessionOverview(ctx, { project_key: refs.era1.project_key, session_ref: "S9999" }, sessionAuditEvents)).toMatchObject({ status: "invalid", errors: [{ field: "session_ref" }] });
      expect(await sessionOverview(ctx, { project_key: "nope", session_ref: "S0001" }, sessionAuditEvents)).toMatchObject({ status: "invalid", errors: [{ field: "project_key" }] });
    });
  });

  describe("reconstruct_session", () => {
    const ALL = { limit: 5000, max_bytes: 10_000_000 };

    it.each(Object.keys(SESSIONS) as (keyof typeof SESSIONS)[])("%s: pages concatenate to the unpaged timeline, in timeline order", async (name) => {
      const all = await reconstruct(name, ALL);
      expect(all.truncated).toBe(false);
      expect(all.returned).toBe(all.event_count);
      expect(all.event_count).toBe((await overview(name)).diagnostics.events.total);
      const pages: TimelineRow[] = [];
      for (let offset = 0; offset < all.event_count; offset += 7) {
        const page = await reconstruct(name, { limit: 7, offset, max_bytes: 10_000_000 });
        expect(page.returned).toBe(Math.min(7, all.event_count - offset));
        pages.push(...page.timeline);
      }
      expect(JSON.stringify(pages)).toBe(JSON.stringify(all.timeline));
      const stamped = all.timeline.filter((r) => r.timestamp !== null).map((r) => r.timestamp!);
      expect([...stamped].sort()).toEqual(stamped);
      expect(all.timeline.map((r) => r.index)).toEqual(all.timeline.map((_, i) => i));
    });

    it("headlines (issue 29) name what each row did and do not depend on the page", async () => {
      const all = await reconstruct("era2", { ...ALL, include_headlines: true });
      const pages: TimelineRow[] = [];
      for (let offset = 0; offset < all.event_count; offset += 5) pages.push(...(await reconstruct("era2", { limit: 5, offset, max_bytes: 10_000_000, include_headlines: true })).timeline);
      expect(JSON.stringify(pages)).toBe(JSON.stringify(all.timeline));
      const headlines = all.timeline.map((r) => r.payload.headline).filter((h): h is string => typeof h === "string");
      expect(headlines.some((h) => /^\w+\(.+\) → /.test(h)), "a result naming its call").toBe(true);
      // The agent's own text as plain text (issue 29): this session's replies say `My Workscope ID is: **20260112-204511**`.
      expect(headlines).toContain("My Workscope ID is: 20260112-204511 Now let me initialize my Work Journal using the provided script.");
      // Tool results quote their output (a Markdown file's lines) as it is; the agent's text has no marks left.
      expect(headlines.filter((h) => !/^\w+\(/.test(h) && /\*\*\S/.test(h))).toEqual([]);
      expect((await reconstruct("era2", ALL)).timeline.every((r) => !("headline" in r.payload))).toBe(true);
    });

    it("places subagent rows between main rows in time order, and tool results after their main record", async () => {
      const { timeline } = await reconstruct("era2", ALL);
      const sources = timeline.map((r) => r.source);
      const firstSub = sources.indexOf("subagent");
      const lastSub = sources.lastIndexOf("subagent");
      expect(sources.slice(firstSub, lastSub + 1)).toContain("main");
      expect(sources.slice(0, firstSub)).toContain("main");
      expect(sources.slice(lastSub)).toContain("main");
      for (const row of timeline.filter((r) => r.source === "subagent")) expect(row.agent_id).toMatch(/^agent-/);
      const toolRows = timeline.filter((r) => r.source === "tool_result");
      expect(toolRows.length).toBeGreaterThan(0);
      for (const row of toolRows) {
        expect(row.timestamp).toBeNull();
        expect(row.file).toMatch(/\/tool-results\//);
      }
      const mainRows = timeline.filter((r) => r.source === "main" && r.turn_ref !== null);
      expect(mainRows.length).toBeGreaterThan(0);
    });

    it("is deterministic: the same call twice gives the same bytes", async () => {
      for (const name of Object.keys(SESSIONS) as (keyof typeof SESSIONS)[]) {
        const a = JSON.stringify(await reconstruct(name, { verbosity: "full", include_prompts: true, limit: 300, max_bytes: 10_000_000 }));
        expect(JSON.stringify(await reconstruct(name, { verbosity: "full", include_prompts: true, limit: 300, max_bytes: 10_000_000 }))).toBe(a);
      }
    });

    it.each(Object.keys(SESSIONS) as (keyof typeof SESSIONS)[])("%s: cuts at max_bytes and says so; the cut page is a prefix of the uncut one", async (name) => {
      const page = await reconstruct(name, { limit: 100, max_bytes: 2000 });
      expect(page.truncated).toBe(true);
      expect(page.returned).toBeLessThan(100);
      expect(page.returned).toBeGreaterThan(0);
      expect(page.next_offset).toBe(page.returned);
      expect(Buffer.byteLength(JSON.stringify(page))).toBeLessThanOrEqual(2000);
      const uncut = await reconstruct(name, { limit: 100, max_bytes: 10_000_000 });
      expect(page.timeline).toEqual(uncut.timeline.slice(0, page.returned));
      const tiny = await reconstruct(name, { limit: 100, max_bytes: 200 });
      expect(tiny).toMatchObject({ truncated: true, returned: 0, next_offset: 0 });
      const ref = refs[name];
      const grepCapped = await grep({ project_key: ref.project_key, session_ref: ref.session_ref, pattern: '"type"', limit: 1000, max_bytes: 4000 });
      expect(grepCapped.truncated).toBe(true);
      expect(Buffer.byteLength(JSON.stringify(grepCapped))).toBeLessThanOrEqual(4000);
    });

    it("compact carries no message or tool text; full does, subject to the include flags", async () => {
      const compact = await reconstruct("era2", ALL);
      for (const row of compact.timeline) {
        expect(Object.keys(row.payload).filter((k) => !["summary", "content_kinds", "raw_bytes", "tools", "results", "bytes"].includes(k))).toEqual([]);
      }
      const full = await reconstruct("era2", { ...ALL, verbosity: "full" });
      const user = full.timeline.find((r) => r.event_type === "user_message" && r.source === "main")!;
      expect(user.payload.text).toBeUndefined();
      const withPrompts = await reconstruct("era2", { ...ALL, verbosity: "full", include_prompts: true });
      expect(typeof withPrompts.timeline[user.index]!.payload.text).toBe("string");
      const call = full.timeline.find((r) => r.event_type === "tool_call")!;
      expect((call.payload.tool_uses as { input?: string }[])[0]!.input).toBeTypeOf("string");
      const bare = await reconstruct("era2", { ...ALL, verbosity: "full", include_tool_payloads: false });
      expect((bare.timeline[call.index]!.payload.tool_uses as { input?: string }[])[0]!.input).toBeUndefined();
      expect(Buffer.byteLength(JSON.stringify(compact))).toBeLessThan(Buffer.byteLength(JSON.stringify(withPrompts)));
    });

    it("filters by source and event type before paging", async () => {
      const subs = await reconstruct("era2", { ...ALL, source: "subagent" });
      expect(subs.event_count).toBe((await overview("era2")).diagnostics.events.subagent);
      expect(new Set(subs.timeline.map((r) => r.source))).toEqual(new Set(["subagent"]));
      const calls = await reconstruct("codex", { ...ALL, event_type: "tool_call" });
      expect(calls.event_count).toBe((await overview("codex")).diagnostics.tools.total_calls);
      expect((await reconstruct("codex", { event_type: "no_such_type" })).event_count).toBe(0);
    });

    it("returns invalid naming the field for an unknown session", async () => {
      expect(await reconstructSession(ctx, reconstructSessionInputSchema.parse({ project_key: refs.codex.project_key, session_ref: "S0404" }), sessionAuditEvents)).toMatchObject({ status: "invalid", errors: [{ field: "session_ref" }] });
    });
  });

  describe("grep_jsonl", () => {
    const grepN = (file: string, pattern: string): { line: number; text: string }[] => {
      try {
        return execFileSync("grep", ["-n", "-E", "-a", pattern, file], { encoding: "utf8", maxBuffer: 256 << 20 })
          .split("\n")
          .filter((l) => l !== "")
          .map((l) => ({ line: Number(l.slice(0, l.indexOf(":"))), text: l.slice(l.indexOf(":") + 1) }));
      } catch {
        return [];
      }
    };

    it.each([
      ["era1", '"type":"assistant"'],
      ["era2", '"name":"(Read|Bash|Grep)"'],
      ["era2", "tool_use_id"],
      ["codex", '"type":"function_call_output"'],
      ["codex", "exited with code [1-9]"],
      // Anchors are per line, as grep's: no literal prefilter here, so the chunk regex must be MULTILINE.
      ["era2", '^\\{"'],
      ["era1", '\\}$'],
      ["codex", '^\\{"timestamp":"[0-9-]+T'],
    ] as const)("%s /%s/: counts and line numbers equal grep -n on the main file", async (name, pattern) => {
      const ref = refs[name];
      const file = path.join(ref.dir, ref.sessionPath);
      const expected = grepN(file, pattern);
      expect(expected.length).toBeGreaterThan(0);
      const result = await grep({ project_key: ref.project_key, session_ref: ref.session_ref, ledger: "main", pattern, limit: 1000, max_bytes: 10_000_000 });
      expect(result.count).toBe(expected.length);
      expect(result.entries.map((e) => e.line_number)).toEqual(expected.map((e) => e.line));
      expect(result.entries.filter((e) => !e.raw_clipped).map((e) => e.raw)).toEqual(expected.filter((e) => e.text.length <= 16_384).map((e) => e.text));
    });

    it("on the subagent transcripts of both eras too: counts and line numbers equal grep -n", async () => {
      for (const name of ["era1", "era2"] as const) {
        const ref = refs[name];
        const subs = (await overview(name)).diagnostics.files.filter((f) => f.source === "subagent");
        expect(subs.length, name).toBeGreaterThan(0);
        for (const f of subs) {
          const pattern = '"type":"(assistant|user)"';
          const expected = grepN(path.join(ref.dir, f.file), pattern);
          const result = await grep({ project_key: ref.project_key, session_ref: ref.session_ref, ledger: `subagent:${path.basename(f.file, ".jsonl")}`, pattern, limit: 1000, max_bytes: 10_000_000 });
          expect(result.count, f.file).toBe(expected.length);
          expect(result.entries.map((e) => e.line_number)).toEqual(expected.map((e) => e.line));
          expect(new Set(result.entries.map((e) => e.file))).toEqual(new Set(expected.length ? [f.file] : []));
        }
      }
    });

    it("searches every file of a session (subagents, tool results) and pages with limit/offset", async () => {
      const ref = refs.era2;
      const all = await grep({ project_key: ref.project_key, session_ref: ref.session_ref, pattern: "the", limit: 1000, max_bytes: 10_000_000 });
      expect(new Set(all.entries.map((e) => e.file.includes("/subagents/") ? "subagent" : e.file.includes("/tool-results/") ? "tool_result" : "main"))).toEqual(new Set(["main", "subagent", "tool_result"]));
      const pages = [];
      for (let offset = 0; offset < all.count; offset += 9) {
        const page = await grep({ project_key: ref.project_key, session_ref: ref.session_ref, pattern: "the", limit: 9, offset, max_bytes: 10_000_000 });
        // The scan stops one match past the page: count is exact only for the last page.
        if (offset + 9 < all.count) expect(page).toMatchObject({ count: offset + 10, count_exact: false });
        else expect(page).toMatchObject({ count: all.count, count_exact: true });
        pages.push(...page.entries);
      }
      expect(pages).toEqual(all.entries);
      const capped = await grep({ project_key: ref.project_key, session_ref: ref.session_ref, pattern: "the", limit: 1000, max_bytes: 3000 });
      expect(capped.truncated).toBe(true);
      expect(capped.count_exact).toBe(false);
      expect(capped.count).toBe(capped.returned + 1);
      expect(all.count_exact).toBe(true);
      expect(Buffer.byteLength(JSON.stringify(capped))).toBeLessThanOrEqual(3000);
    });

    it("searches the whole project when session_ref is absent", async () => {
      const ref = refs.era2;
      const ws = await loadWorkspace(ctx);
      const project = ws.projects.find((p) => p.projectKey === ref.project_key)!;
      let sum = 0;
      for (const row of project.rows) sum += (await grep({ project_key: ref.project_key, session_ref: row.session_ref, pattern: "wsd:init", limit: 1000, max_bytes: 10_000_000 })).count;
      const whole = await grep({ project_key: ref.project_key, pattern: "wsd:init", limit: 1000, max_bytes: 10_000_000 });
      expect(whole).toMatchObject({ count: sum, count_exact: true });
      const first = await grep({ project_key: ref.project_key, pattern: "wsd:init", limit: 5, max_bytes: 10_000_000 });
      expect(first).toMatchObject({ count: 6, count_exact: false, returned: 5 });
      expect(first.entries).toEqual(whole.entries.slice(0, 5));
      expect(whole.session_ref).toBeNull();
    });

    it("rejects an invalid pattern, an unknown ledger or session with invalid naming the field; finds nothing without error", async () => {
      const ref = refs.era2;
      expect(await grep({ project_key: ref.project_key, session_ref: ref.session_ref, pattern: "(unclosed" })).toMatchObject({ status: "invalid", errors: [{ field: "pattern" }] });
      expect(await grep({ project_key: ref.project_key, session_ref: ref.session_ref, pattern: "(?=look)" })).toMatchObject({ status: "invalid", errors: [{ field: "pattern" }] });
      expect(await grep({ project_key: ref.project_key, session_ref: ref.session_ref, pattern: "x", ledger: "subagent:agent-nope" })).toMatchObject({ status: "invalid", errors: [{ field: "ledger" }] });
      expect(await grep({ project_key: ref.project_key, session_ref: "S0404", pattern: "x" })).toMatchObject({ status: "invalid", errors: [{ field: "session_ref" }] });
      expect(await grep({ project_key: ref.project_key, session_ref: ref.session_ref, pattern: "no-such-string-anywhere-42" })).toMatchObject({ status: "ok", count: 0, entries: [] });
      // A catastrophic pattern for a backtracking engine runs in linear time under RE2.
      expect((await grep({ project_key: ref.project_key, session_ref: ref.session_ref, pattern: "(a+)+$" })).status).toBe("ok");
    });

    it("stops a slow pattern once it has the page, answers a clear invalid past its time budget, and gives other work turns meanwhile (issue 26)", async () => {
      const ref = refs.era2;
      const slow = "(.*a){20}";
      const page = await grep({ project_key: ref.project_key, session_ref: ref.session_ref, pattern: slow, limit: 20 });
      expect(page).toMatchObject({ status: "ok", returned: 20, count: 21, count_exact: false });
      const input = grepJsonlInputSchema.parse({ project_key: ref.project_key, session_ref: ref.session_ref, pattern: "(.*[a-z]){25}[0-9]{9}", limit: 20 });
      const timedOut = await grepJsonl(ctx, input, 50);
      expect(timedOut).toMatchObject({ status: "invalid", errors: [{ field: "pattern", message: expect.stringMatching(/ran out of its 0\.05 s budget at .+:\d+ \(session /), hint: expect.stringContaining("more specific") }] });
      // Timers fire while a long scan runs: it yields at least every slice.
      let turns = 0;
      const timer = setInterval(() => (turns += 1), 1);
      const started = performance.now();
      await grepJsonl(ctx, input, 400);
      const elapsed = performance.now() - started;
      clearInterval(timer);
      expect(elapsed).toBeGreaterThan(300);
      // A scan that never yielded would let the timer fire at most once; a loaded machine stretches slices, so ask for two.
      expect(turns).toBeGreaterThanOrEqual(2);
    });
  });

  describe("session sources as ledgers (query_ledger_full)", () => {
    const query = async (over: Record<string, unknown>) => (await querySessionLedger(ctx, sessionLedgerInputSchema.parse(over))) as SessionLedgerPage;

    it("returns full records of main and of one subagent, filtered and paginated", async () => {
      const ref = refs.era2;
      const main = await query({ project_key: ref.project_key, session_ref: ref.session_ref, ledger: "main", event_type: "tool_call", max_entries: 3, offset: 2 });
      expect(main.total).toBeGreaterThan(5);
      expect(main.next_offset).toBe(5);
      expect(main.entries.map((e) => e.event_type)).toEqual(["tool_call", "tool_call", "tool_call"]);
      expect((main.entries[0]!.record as { type: string }).type).toBe("assistant");
      const all = await query({ project_key: ref.project_key, session_ref: ref.session_ref, ledger: "main", event_type: "tool_call", max_entries: 1000, max_bytes: 10_000_000 });
      expect(main.entries).toEqual(all.entries.slice(2, 5));
      const sub = await query({ project_key: ref.project_key, session_ref: ref.session_ref, ledger: "subagent:agent-a930f76", max_entries: 1000, max_bytes: 10_000_000 });
      expect(sub.total).toBe(sub.returned);
      expect(sub.next_offset).toBeNull();
      expect(sub.file).toMatch(/subagents\/agent-a930f76\.jsonl$/);
      expect(await querySessionLedger(ctx, sessionLedgerInputSchema.parse({ project_key: ref.project_key, session_ref: ref.session_ref, ledger: "subagent:agent-zzz" }))).toMatchObject({ status: "invalid", errors: [{ field: "ledger" }] });
      expect(await querySessionLedger(ctx, sessionLedgerInputSchema.parse({ project_key: ref.project_key, session_ref: ref.session_ref, ledger: "bogus" }))).toMatchObject({ status: "invalid", errors: [{ field: "ledger" }] });
    });

    it("answers through query_ledger_full's dispatch beside the audit ledger", async () => {
      const ref = refs.era2;
      const viaTool = (await callTool(ctx, "query_ledger_full", { ledger: "main", project_key: ref.project_key, session_ref: ref.session_ref, event_type: "tool_call", max_entries: 3, offset: 2 }, { door: "cli" })) as SessionLedgerPage;
      const direct = await query({ project_key: ref.project_key, session_ref: ref.session_ref, ledger: "main", event_type: "tool_call", max_entries: 3, offset: 2, max_bytes: 10_000_000 });
      expect(viaTool).toEqual(direct);
      const newest = (await callTool(ctx, "query_ledger_full", { ledger: "subagent:agent-a930f76", project_key: ref.project_key, session_ref: ref.session_ref, order: "desc", max_entries: 1 }, { door: "cli" })) as SessionLedgerPage;
      expect(newest.entries[0]!.line).toBe(newest.total > 0 ? Math.max(...(await query({ project_key: ref.project_key, session_ref: ref.session_ref, ledger: "subagent:agent-a930f76", max_entries: 1000, max_bytes: 10_000_000 })).entries.map((e) => e.line)) : 0);
      expect(await callTool(ctx, "query_ledger_full", { ledger: "main", project_key: ref.project_key }, { door: "cli" })).toMatchObject({ status: "invalid", errors: [{ field: "session_ref" }] });
      expect(await callTool(ctx, "query_ledger_full", { ledger: "subagent:agent-none", project_key: ref.project_key, session_ref: ref.session_ref }, { door: "cli" })).toMatchObject({ status: "invalid", errors: [{ field: "ledger" }] });
      expect((await callTool(ctx, "query_ledger_full", { ledger: "audit" }, { door: "cli" })).status).toBe("ok");
    });
  });
  describe("pagination and caps on every tool", () => {
    it.each(Object.keys(SESSIONS) as (keyof typeof SESSIONS)[])("%s: session_overview pages its errors and warnings with limit/offset; counts stay exact", async (name) => {
      const ids = { project_key: refs[name].project_key, session_ref: refs[name].session_ref };
      const whole = (await sessionOverview(ctx, { ...ids, limit: 1000 }, sessionAuditEvents)) as SessionOverviewResult;
      const sum = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);
      expect(whole.summary.errors.length).toBe(sum(whole.summary.error_counts));
      expect(whole.summary.warnings.length).toBe(sum(whole.summary.warning_counts));
      expect(whole.summary.findings_page.next_offset).toBeNull();
      const errors = [];
      const warnings = [];
      for (let offset = 0; ; offset += 2) {
        const page = (await callTool(ctx, "session_overview", { ...ids, limit: 2, offset }, { door: "cli" })) as SessionOverviewResult;
        expect(page.summary.findings_page).toMatchObject({ offset, limit: 2 });
        expect(page.summary.error_counts).toEqual(whole.summary.error_counts);
        errors.push(...page.summary.errors);
        warnings.push(...page.summary.warnings);
        if (page.summary.findings_page.next_offset === null) break;
        expect(page.summary.findings_page.next_offset).toBe(offset + 2);
      }
      expect(errors).toEqual(whole.summary.errors);
      expect(warnings).toEqual(whole.summary.warnings);
    });

    it("session_overview rejects a bad limit through the registry, naming the field", async () => {
      expect(await callTool(ctx, "session_overview", { project_key: refs.era2.project_key, session_ref: refs.era2.session_ref, limit: 0 }, { door: "cli" })).toMatchObject({ status: "invalid", errors: [{ field: "limit" }] });
    });

    it("list_sessions pages with limit/offset, and its status agrees with session_overview's (both eras, Codex)", async () => {
      for (const name of Object.keys(SESSIONS) as (keyof typeof SESSIONS)[]) {
        const key = refs[name].project_key;
        const all = (await listSessions(ctx, { project_key: key, limit: 500, offset: 0, sort: "session_ref", order: "asc" })) as ListSessionsResult;
        expect(all.count).toBe(all.total);
        const pages = [];
        for (let offset = 0; offset < all.total; offset += 2) {
          const page = (await callTool(ctx, "list_sessions", { project_key: key, limit: 2, offset, sort: "session_ref", order: "asc" }, { door: "cli" })) as ListSessionsResult;
          expect(page.count).toBe(Math.min(2, all.total - offset));
          pages.push(...page.sessions);
        }
        expect(pages.map((p) => p.session_ref)).toEqual(all.sessions.map((p) => p.session_ref));
        const item = all.sessions.find((s) => s.session_ref === refs[name].session_ref)!;
        const o = await overview(name);
        expect([item.status, item.last_response_preview], name).toEqual([o.summary.status, o.summary.last_response_preview]);
        for (const s of all.sessions) expect(["completed", "active", "errored"]).toContain(s.status);
      }
      const codex = (await listSessions(ctx, { project_key: refs.codex.project_key, limit: 500, offset: 0, sort: "session_ref", order: "asc" })) as ListSessionsResult;
      expect(codex.sessions.find((s) => s.session_ref === refs.codex.session_ref)).toMatchObject({ status: "completed", last_response_preview: expect.any(String) });
    });

    it("query_ledger_full caps a session ledger at max_bytes, and pages concatenate", async () => {
      const ref = refs.era2;
      const ids = { project_key: ref.project_key, session_ref: ref.session_ref };
      const whole = (await callTool(ctx, "query_ledger_full", { ...ids, ledger: "main", max_entries: 1000, max_bytes: 10_000_000 }, { door: "cli" })) as SessionLedgerPage;
      expect(whole.truncated).toBe(false);
      const capped = (await callTool(ctx, "query_ledger_full", { ...ids, ledger: "main", max_entries: 1000, max_bytes: 20_000 }, { door: "cli" })) as SessionLedgerPage;
      expect(capped).toMatchObject({ truncated: true, next_offset: capped.returned });
      expect(capped.returned).toBeGreaterThan(0);
      expect(Buffer.byteLength(JSON.stringify(capped))).toBeLessThanOrEqual(20_000);
      expect(capped.entries).toEqual(whole.entries.slice(0, capped.returned));
      const rest = [];
      for (let offset = 0; offset < whole.total; offset += 25) rest.push(...((await callTool(ctx, "query_ledger_full", { ...ids, ledger: "main", max_entries: 25, offset, max_bytes: 10_000_000 }, { door: "cli" })) as SessionLedgerPage).entries);
      expect(rest).toEqual(whole.entries);
      expect(await callTool(ctx, "query_ledger_full", { ...ids, ledger: "main", max_bytes: 10 }, { door: "cli" })).toMatchObject({ status: "invalid", errors: [{ field: "max_bytes" }] });
    });
  });

  // Last: it writes to the workspace's audit ledger, which every later read of era1 would see.
  describe("the audit ledger as the session's fourth source", () => {
    const PRIO: Record<string, number> = { main: 0, subagent: 1, tool_result: 2, audit: 3 };
    const viaMcp = async <T>(tool: string, input: Record<string, unknown>) => (await callTool(ctx, tool, input, { door: "mcp", client: "forensics-test" })) as T;

    it("counts the calls recorded on the session in the overview and merges them into the timeline, deterministically", async () => {
      const ref = refs.era1;
      const ids = { project_key: ref.project_key, session_ref: ref.session_ref };
      const before = await viaMcp<SessionOverviewResult>("session_overview", ids);
      expect(before.diagnostics.audit).toEqual({ calls: 0, entries: 0, by_tool: {}, by_door: {}, first_at: null, last_at: null });
      expect(before.diagnostics.events.audit).toBe(0);

      // A chain written through the registry (MCP), an agent's read (CLI), and the dashboard's own reads (left out).
      const ws = await loadWorkspace(ctx);
      const row = ws.projects.flatMap((p) => p.rows).find((r) => r.source_session_id === SESSIONS.era1)!;
      const turn = row.turns.find((t) => t.turn_end_line - t.turn_start_line >= 2)!;
      const write = await viaMcp<{ status: string }>("write_evidence", { ...ids, evidence_chain: chainForTurn(turn) });
      expect(["appended", "invalid"]).toContain(write.status);
      expect((await callTool(ctx, "read_session_lines", { ...ids, start_line: 1, end_line: 2 }, { door: "cli" })).status).toBe("ok");
      await callTool(ctx, "get_evidence_card", ids, { door: "ui" });
      await callTool(ctx, "get_session_detail", ids, { door: "ui" });
      await callTool(ctx, "session_overview", ids, { door: "ui" });

      const overviewA = await viaMcp<SessionOverviewResult>("session_overview", ids);
      const overviewB = await viaMcp<SessionOverviewResult>("session_overview", ids);
      expect(JSON.stringify(overviewB)).toBe(JSON.stringify(overviewA));
      const a = overviewA.diagnostics;
      expect(a.audit).toMatchObject({ calls: 2, entries: 4, by_door: { cli: 1, mcp: 1 } });
      expect(a.audit.by_tool.read_session_lines).toEqual({ called: 1, succeeded: 1, failed: 0 });
      expect(a.audit.by_tool.write_evidence!.called).toBe(1);
      expect(a.audit.by_tool.write_evidence!.succeeded + a.audit.by_tool.write_evidence!.failed).toBe(1);
      expect(a.events.audit).toBe(4);
      expect(a.events.total).toBe(before.diagnostics.events.total + 4);
      expect(a.event_types).toMatchObject({ tool_call_started: 2, tool_call_finished: 2 });
      // The transcript side is unchanged by the audit entries.
      expect(overviewA.summary).toEqual(before.summary);

      const all = { ...ids, limit: 5000, max_bytes: 10_000_000 };
      const timelineA = await viaMcp<ReconstructSessionResult>("reconstruct_session", all);
      const timelineB = await viaMcp<ReconstructSessionResult>("reconstruct_session", all);
      expect(JSON.stringify(timelineB)).toBe(JSON.stringify(timelineA));
      expect(timelineA.event_count).toBe(a.events.total);
      const auditRows = timelineA.timeline.filter((r) => r.source === "audit");
      expect(auditRows.map((r) => [r.event_type, r.payload.tool_name, r.actor])).toEqual([
        ["tool_call_started", "write_evidence", "mcp"],
        ["tool_call_finished", "write_evidence", "mcp"],
        ["tool_call_started", "read_session_lines", "cli"],
        ["tool_call_finished", "read_session_lines", "cli"],
      ]);
      // Each audit row points at its physical line of the ledger file.
      const index = await getLedger(ctx.workspaceRoot).read();
      for (const r of auditRows) {
        const at = index.entries.find((e) => e.entry.receipt_id === r.payload.receipt_id && e.entry.kind === r.event_type)!.at;
        expect([r.file, r.line]).toEqual([at.file, at.line]);
      }
      for (const r of auditRows) expect(Object.keys(r.payload).sort()).toEqual(["duration_ms", "receipt_id", "result", "status", "summary", "tool_name"]);
      expect(auditRows.every((r) => !UNLISTED_AUDIT_TOOLS.has(String(r.payload.tool_name)))).toBe(true);

      const filtered = await reconstruct("era1", { ...all, source: "audit" });
      expect(filtered.timeline.map((r) => r.payload.receipt_id)).toEqual(auditRows.map((r) => r.payload.receipt_id));
      expect((await reconstruct("era1", { ...all, event_type: "tool_call_finished" })).event_count).toBe(2);
      const full = await reconstruct("era1", { ...all, verbosity: "full", source: "audit" });
      expect(full.timeline[0]!.payload).toMatchObject({ client: "forensics-test", input_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(full.timeline[1]!.payload.policy_decisions).toEqual(expect.any(Array));
    });

    it("orders an audit entry by its timestamp, after transcript rows of the same time, and pages stay exact", async () => {
      const ref = refs.era1;
      const ids = { project_key: ref.project_key, session_ref: ref.session_ref };
      const before = await reconstruct("era1", { limit: 5000, max_bytes: 10_000_000 });
      // A main record in the middle whose time is shared by nothing later but is followed by a later time.
      const rows = before.timeline;
      const pick = rows.findIndex((r, i) => i > rows.length / 3 && r.source === "main" && r.timestamp !== null && rows[i + 1]?.timestamp !== null && rows[i + 1]!.timestamp! > r.timestamp);
      expect(pick).toBeGreaterThan(0);
      const at = rows[pick]!.timestamp!;
      const then = createCoreContext(ctx.workspaceRoot, { now: () => new Date(at) });
      expect((await callTool(then, "read_session_lines", { ...ids, start_line: 1, end_line: 1 }, { door: "http" })).status).toBe("ok");

      const after = await reconstruct("era1", { limit: 5000, max_bytes: 10_000_000 });
      expect(after.event_count).toBe(before.event_count + 2);
      const placed = after.timeline.slice(pick + 1, pick + 3);
      expect(placed.map((r) => [r.source, r.event_type, r.timestamp])).toEqual([
        ["audit", "tool_call_started", at],
        ["audit", "tool_call_finished", at],
      ]);
      expect(after.timeline[pick]!.timestamp).toBe(at);
      expect(after.timeline[pick + 3]!.timestamp! > at).toBe(true);
      // Timestamp, then source priority main > subagent > tool_result > audit, on every adjacent pair.
      for (let i = 1; i < after.timeline.length; i++) {
        const p = after.timeline[i - 1]!;
        const q = after.timeline[i]!;
        if (p.timestamp === null || q.timestamp === null) continue;
        expect(p.timestamp <= q.timestamp, `${i}`).toBe(true);
        if (p.timestamp === q.timestamp) expect(PRIO[p.source]! <= PRIO[q.source]!, `${i}`).toBe(true);
      }
      const pages: TimelineRow[] = [];
      for (let offset = 0; offset < after.event_count; offset += 11) pages.push(...(await reconstruct("era1", { limit: 11, offset, max_bytes: 10_000_000 })).timeline);
      expect(JSON.stringify(pages)).toBe(JSON.stringify(after.timeline));
    });
  });
});
