/**
 * Issue 38: a session of each agent read through the source contract (Gemini CLI, Copilot CLI,
 * OpenCode, Aider) works like a Claude Code one through every door: the same call through CLI,
 * HTTP and MCP returns the same JSON for its list row, turns, lines, an evidence chain citing one
 * of its turns (seed 000) and the card read back, a work item quoting that turn (seed 001) with
 * the coverage moving, the forensics (seed 004), search by agent and usage by source.
 */
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

import { beforeAll, describe, expect, it } from "vitest";

import { fillFullText } from "@/lib/catalog/full-text-index";
import { refreshCatalog } from "@/lib/catalog/refresh";
import { createCoreContext } from "@/lib/context";
import { physicalLines } from "@/lib/jsonl/text-lines";
import { findTool } from "@/lib/tools/registry";
import { prepareAgentsWorkspace } from "@/lib/testing/agents-workspace";
import { HAS_SHARED, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { loadWorkspace } from "@/lib/workspace/load";
import { type DoorAnswers, type DoorName, openDoors } from "@/server/__fixtures__/doors";

type Turn = { turn_ref: string; turn_start_line: number; turn_end_line: number };
type Span = `${number}-${number}`;

/** One session of an agent, what its index row and lines hold, and the chain a reviewer writes on one of its turns. */
type AgentCase = {
  source: string;
  /** The agent's own session id (the index row's `source_session_id`). */
  id: string;
  /** The session's indexed turns, from its reader's trigger lines. */
  turns: Turn[];
  /** The turn the chain is written on, and its user prompt as the reader reads it (the trigger line's). */
  chained: string;
  prompt: string;
  /** Physical lines cited: the prompt, the agent's reaction, its outcome, the last line of the turn. */
  lines: { trigger: Span; reaction: Span; outcome: Span; terminal: Span };
  outcome: string;
  /** A regex grep_jsonl runs over the session's lines, and a search word the agent's lines hold. */
  pattern: string;
  word: string;
  /** The other sessions of its project, each with its turns (none chained). */
  siblings: { id: string; turns: string[] }[];
};

const CASES: AgentCase[] = [
  {
    source: "gemini-cli",
    id: "209f5a02-005a-47f8-a0f9-a959f14ca9e7",
    turns: [
      { turn_ref: "T0001", turn_start_line: 3, turn_end_line: 6 },
      { turn_ref: "T0002", turn_start_line: 7, turn_end_line: 10 },
      { turn_ref: "T0003", turn_start_line: 11, turn_end_line: 14 },
      { turn_ref: "T0004", turn_start_line: 15, turn_end_line: 60 },
    ],
    chained: "T0004",
    prompt: "hello",
    lines: { trigger: "15-15", reaction: "16-51", outcome: "52-52", terminal: "60-60" },
    outcome: "code_outcome",
    pattern: "class URLValidator",
    word: "URLValidator",
    siblings: [],
  },
  {
    source: "copilot-cli",
    id: "87ecd1bd-04f8-4b58-b837-a583e194be8f",
    turns: [{ turn_ref: "T0001", turn_start_line: 4, turn_end_line: 8 }],
    chained: "T0001",
    prompt: "Reply with exactly the two characters: ok",
    lines: { trigger: "4-4", reaction: "6-6", outcome: "6-6", terminal: "8-8" },
    outcome: "other",
    pattern: "two characters",
    word: "characters",
    siblings: [],
  },
  {
    source: "opencode",
    id: "ses_6290e7826ffeR7mF2FTlXM52x8",
    turns: [{ turn_ref: "T0001", turn_start_line: 2, turn_end_line: 11 }],
    chained: "T0001",
    prompt: 'add a file, test.txt, with ":)" in it',
    lines: { trigger: "2-3", reaction: "6-6", outcome: "6-8", terminal: "11-11" },
    outcome: "code_outcome",
    pattern: "test\\.txt",
    word: "test.txt",
    siblings: [],
  },
  {
    source: "aider",
    id: "myrepo-20260609T140100",
    turns: [
      { turn_ref: "T0001", turn_start_line: 3, turn_end_line: 7 },
      { turn_ref: "T0002", turn_start_line: 8, turn_end_line: 16 },
    ],
    chained: "T0001",
    prompt: "add a retry to the webhook",
    lines: { trigger: "3-3", reaction: "4-6", outcome: "6-6", terminal: "6-6" },
    outcome: "decision_outcome",
    pattern: "webhook",
    word: "webhook",
    siblings: [{ id: "myrepo-20260609T153000", turns: ["T0001"] }],
  },
];

/** Where a session lives in the workspace: its project, ref and workspace file. */
type Located = { project_key: string; session_ref: string; session_path: string; file: string };

let root = "";
let call: (tool: string, input: object) => Promise<DoorAnswers>;
let one: <D extends DoorName>(door: D, tool: string, input: object) => Promise<DoorAnswers[D]>;
const DOORS = ["cli", "http", "mcp"] as const;
/** Each session of the workspace by its agent's session id. */
const located = new Map<string, Located>();
/** Every session of each agent: `project_key/session_ref`. */
const bySource = new Map<string, string[]>();

/** Every door answered alike, and as a success (`ok`) or a refusal; returns the parsed JSON. */
function same<T = Record<string, unknown>>(answers: DoorAnswers, ok = true): T {
  expect(answers.http.text).toBe(answers.cli.text);
  expect(answers.mcp.text).toBe(answers.cli.text);
  expect([answers.cli.code, answers.http.status, answers.mcp.isError]).toEqual(ok ? [0, 200, false] : [2, 400, true]);
  return JSON.parse(answers.cli.text) as T;
}

/** A dashboard tool: CLI and HTTP answer alike and succeed, MCP does not list it; returns the parsed JSON. */
function offMcp<T = Record<string, unknown>>(tool: string, answers: DoorAnswers): T {
  expect(answers.http.text).toBe(answers.cli.text);
  expect([answers.cli.code, answers.http.status]).toEqual([0, 200]);
  expect(answers.mcp).toEqual({ isError: true, text: `MCP error -32602: Tool ${tool} not found` });
  return JSON.parse(answers.cli.text) as T;
}

/** One door's answer was a success: exit 0, HTTP 200, no MCP error. */
function succeeded(answer: DoorAnswers[DoorName]): boolean {
  return "code" in answer ? answer.code === 0 : "status" in answer ? answer.status === 200 : !answer.isError;
}

/** A physical line's whole record: its JSON, or the line itself when it is not JSON (an agent's Markdown line). */
function recordOf(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return line;
  }
}

/** The chain a reviewer writes on the case's turn: every citation inside it. */
function chainOf(c: AgentCase) {
  return {
    turn_ref: c.chained,
    trigger: { type: "explicit_user_message", summary: "The user asked for the work.", quoted_messages: [{ text: c.prompt, citations: [{ lines: c.lines.trigger }] }], citations: [{ lines: c.lines.trigger }] },
    agent_reactions: [{ summary: "The agent worked on it.", citations: [{ lines: c.lines.reaction }] }],
    outcomes: [{ category: c.outcome, summary: "What the agent's work came to.", citations: [{ lines: c.lines.outcome }] }],
    observed_checks: [],
    terminal_state: { type: "material_result", summary: "The turn ended on the agent's result.", citations: [{ lines: c.lines.terminal }] },
    materiality: "minor",
  };
}

/*
 * Every case spawns the CLI through tsx (seconds of start-up on a loaded runner, several times in
 * the write cases): the time limits are generous bounds, never measures of speed.
 */
const SPAWNING = { timeout: 600_000 };

describe.skipIf(!HAS_SHARED)(`agent sessions through every door (issue 38)${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, SPAWNING, () => {
  beforeAll(async () => {
    ({ root } = await prepareAgentsWorkspace());
    for (const project of (await loadWorkspace(createCoreContext(root, { oneShot: true }))).projects) {
      for (const row of project.rows) {
        located.set(row.source_session_id, { project_key: project.projectKey, session_ref: row.session_ref, session_path: row.session_path, file: path.join(root, "projects", project.projectKey, row.session_path) });
        bySource.set(row.source, [...(bySource.get(row.source) ?? []), `${project.projectKey}/${row.session_ref}`]);
      }
    }
    // The index filled first, as the dashboard's watcher does: the long-running doors answer from it.
    await refreshCatalog(createCoreContext(root));
    await fillFullText(createCoreContext(root));
    ({ call, one } = await openDoors(root));
  }, 120_000);

  describe.each(CASES)("$source", (c) => {
    const at = () => located.get(c.id)!;
    const ref = () => ({ project_key: at().project_key, session_ref: at().session_ref });
    const turn = () => c.turns.find((t) => t.turn_ref === c.chained)!;
    const physical = async () => physicalLines(await fs.readFile(at().file, "utf8"));

    it("list_sessions with the source filter: its row names the agent; another agent's filter lists nothing", async () => {
      const { project_key, session_ref } = ref();
      const listed = same<{ total: number; sessions: Record<string, unknown>[] }>(await call("list_sessions", { project_key, source: c.source }));
      expect(listed.total).toBe(1 + c.siblings.length);
      expect(listed.sessions.every((s) => s.source === c.source)).toBe(true);
      expect(listed.sessions.find((s) => s.session_ref === session_ref)).toMatchObject({ source: c.source, source_session_id: c.id, turn_count: c.turns.length, first_user_message: c.prompt });
      const other = c.source === "aider" ? "gemini-cli" : "aider";
      expect(same<{ total: number; sessions: unknown[] }>(await call("list_sessions", { project_key, source: other }))).toMatchObject({ total: 0, sessions: [] });
    });

    it("list_session_turns (CLI and HTTP; a dashboard tool): the reader's turns, line spans and all", async () => {
      const result = offMcp<{ total_turns: number; turns: (Turn & { ordinal: number })[] }>("list_session_turns", await call("list_session_turns", ref()));
      expect(result.total_turns).toBe(c.turns.length);
      expect(result.turns.map(({ ordinal: _ordinal, ...t }) => t)).toEqual(c.turns);
    });

    it("read_session_lines: the turn compact, one record per physical line; a line full, byte for byte", async () => {
      const { turn_start_line: start, turn_end_line: end } = turn();
      const compact = same<{ line_range: object; mode: string; records: { line: number; role: string | null; text_preview: string | null; raw_sha256: string }[] }>(
        await call("read_session_lines", { ...ref(), start_line: start, end_line: end, mode: "compact" }),
      );
      expect(compact).toMatchObject({ line_range: { start, end }, mode: "compact" });
      expect(compact.records.map((r) => r.line)).toEqual(Array.from({ length: end - start + 1 }, (_, i) => start + i));
      expect(compact.records[0]).toMatchObject({ role: "user", text_preview: c.prompt });
      const lines = await physical();
      const sha = (text: string) => createHash("sha256").update(text).digest("hex");
      expect(compact.records.map((r) => r.raw_sha256)).toEqual(lines.slice(start - 1, end).map(sha));
      const full = same<{ mode: string; records: { line: number; raw_line: string; raw_bytes: number; raw_sha256: string }[] }>(await call("read_session_lines", { ...ref(), start_line: start, end_line: start, mode: "full" }));
      const raw = lines[start - 1]!;
      expect(full).toMatchObject({ mode: "full", records: [{ line: start, raw_line: raw, raw_bytes: Buffer.byteLength(raw), raw_sha256: sha(raw) }] });
    });

    it("write_evidence: a chain citing the turn's lines is appended alike through each door, stored in the card and read back", async () => {
      const chain = chainOf(c);
      const input = { ...ref(), evidence_chain: chain };
      const card = path.join(root, "projects", at().project_key, "evidence", `${at().session_ref}.json`);
      const texts: string[] = [];
      for (const door of DOORS) {
        await fs.rm(card, { force: true });
        const answer = await one(door, "write_evidence", input);
        expect(succeeded(answer)).toBe(true);
        texts.push(answer.text);
        // The canonical card (seed 000): evidence/<session_ref>.json, the chain as written.
        expect(JSON.parse(await fs.readFile(card, "utf8"))).toEqual({ schema_version: 1, project_key: at().project_key, session_ref: at().session_ref, evidence_chains: [chain] });
      }
      expect(new Set(texts).size).toBe(1);
      expect(JSON.parse(texts[0]!)).toEqual({ status: "appended", ...ref(), turn_ref: c.chained });
      // The card read back by the dashboard's tool: CLI and HTTP alike (MCP lists agent tools only).
      const read = offMcp("get_evidence_card", await call("get_evidence_card", ref())) as { card: unknown; status: string; turns: { turn_ref: string; turn_start_line: number; turn_end_line: number; state: string }[] };
      expect(read.card).toEqual({ schema_version: 1, project_key: at().project_key, session_ref: at().session_ref, evidence_chains: [chain] });
      expect(read.turns.map((t) => [t.turn_ref, t.turn_start_line, t.turn_end_line, t.state])).toEqual(c.turns.map((t) => [t.turn_ref, t.turn_start_line, t.turn_end_line, t.turn_ref === c.chained ? "chain" : "none"]));
      expect(read.status).toBe(c.turns.length === 1 ? "complete" : "partial");
    });

    it("write_evidence: a citation outside the turn is refused alike with the structured error, nothing written", async () => {
      const card = path.join(root, "projects", at().project_key, "evidence", `${at().session_ref}.json`);
      const before = await fs.readFile(card, "utf8");
      await fs.rm(card);
      const outside = turn().turn_start_line - 1;
      const chain = chainOf(c);
      const input = { ...ref(), evidence_chain: { ...chain, terminal_state: { ...chain.terminal_state, citations: [{ lines: `${outside}-${outside}` }] } } };
      const refused = same<{ status: string; errors: { path: string; message: string; hint: string }[] }>(await call("write_evidence", input), false);
      expect(refused).toEqual({
        status: "invalid",
        errors: [
          {
            path: "evidence_chain.terminal_state.citations[0].lines",
            message: `line span ${outside}-${outside} is outside turn ${c.chained} span ${turn().turn_start_line}-${turn().turn_end_line}`,
            hint: "cite only lines inside the indexed turn",
          },
        ],
      });
      await expect(fs.stat(card)).rejects.toThrow();
      await fs.writeFile(card, before);
    });

    it("write_work_item: the envelope quotes the agent's prompt and the uncovered turns move to none", async () => {
      const { project_key, session_ref } = ref();
      const envelope = path.join(root, "projects", project_key, "project-synthesis.json");
      const key = { session_ref, turn_ref: c.chained };
      const rest = [
        ...c.turns.filter((t) => t.turn_ref !== c.chained).map((t) => ({ session_ref, turn_ref: t.turn_ref })),
        ...c.siblings.flatMap((s) => s.turns.map((turn_ref) => ({ session_ref: located.get(s.id)!.session_ref, turn_ref }))),
      ].sort((a, b) => `${a.session_ref}/${a.turn_ref}`.localeCompare(`${b.session_ref}/${b.turn_ref}`));
      const all = [key, ...rest].sort((a, b) => `${a.session_ref}/${a.turn_ref}`.localeCompare(`${b.session_ref}/${b.turn_ref}`));
      const material = {
        work_item_ref: "W0001",
        kind: "material_work_item",
        title: "The agent's work on the request",
        covered_turns: [key],
        trigger: { summary: "The user asked for the work.", evidence_refs: [key] },
        agent_reaction: { summary: "The agent worked on it.", main_actions: ["worked on the request"] },
        outcomes: [{ category: c.outcome, summary: "What the agent's work came to.", evidence_refs: [key], confidence: "medium" }],
        terminal_states: [{ type: "material_result", summary: "The turn ended on the agent's result.", evidence_refs: [key] }],
        limits: [],
        confidence: "medium",
      };
      const gap = { work_item_ref: "W0002", kind: "evidence_gap_item", title: "Turns with no evidence chain", covered_turns: rest, outcomes: [], terminal_states: [], limits: [], confidence: "low" };
      const steps = [
        { input: { project_key, work_item: { ...material, covered_turns: [{ session_ref: "S0404", turn_ref: "T0001" }] } }, ok: false, uncovered: all },
        { input: { project_key, work_item: material }, ok: true, uncovered: rest },
        ...(rest.length > 0 ? [{ input: { project_key, work_item: gap }, ok: true, uncovered: [] }] : []),
      ];
      const texts: string[][] = [];
      for (const door of DOORS) {
        await fs.rm(envelope, { force: true });
        const doorTexts: string[] = [];
        for (const step of steps) {
          const answer = await one(door, "write_work_item", step.input);
          expect(succeeded(answer)).toBe(step.ok);
          const result = JSON.parse(answer.text) as { status: string; uncovered_turns: unknown };
          expect(result).toMatchObject({ status: step.ok ? "appended" : "invalid", uncovered_turns: step.uncovered });
          doorTexts.push(answer.text);
        }
        texts.push(doorTexts);
        expect(JSON.parse(await fs.readFile(envelope, "utf8"))).toMatchObject({
          project_key,
          work_items: rest.length > 0 ? [material, gap] : [material],
          source_user_messages: [{ session_ref, turn_ref: c.chained, messages: [c.prompt] }],
        });
      }
      expect(texts[1]).toEqual(texts[0]);
      expect(texts[2]).toEqual(texts[0]);
    });

    it("session_overview: the agent's session, its first prompt at its line, the reviewers' writes on record", async () => {
      const overview = same<{ summary: Record<string, unknown> & { top_user_messages: unknown[] }; diagnostics: { audit: { by_tool: Record<string, unknown>; by_door: Record<string, number> } } }>(await call("session_overview", ref()));
      expect(overview.summary).toMatchObject({ ...ref(), source: c.source, turn_count: c.turns.length });
      expect(overview.summary.top_user_messages[0]).toEqual({ text: c.prompt, file: at().session_path, line: c.turns[0]!.turn_start_line });
      // Three appends (one per door) and three refusals of the citation outside the turn.
      expect(overview.diagnostics.audit.by_tool.write_evidence).toEqual({ called: 6, succeeded: 3, failed: 3 });
      expect(Object.keys(overview.diagnostics.audit.by_door).sort()).toEqual(["cli", "http", "mcp"]);
    });

    it("reconstruct_session: the transcript's rows carry the turn of their line", async () => {
      const result = same<{ event_count: number; timeline: { source: string; file: string; line: number; turn_ref: string | null; actor: string }[] }>(await call("reconstruct_session", { ...ref(), limit: 500 }));
      const rows = result.timeline.filter((r) => r.source === "main");
      expect(rows.length).toBeGreaterThan(0);
      const turnOf = (line: number) => c.turns.find((t) => line >= t.turn_start_line && line <= t.turn_end_line)?.turn_ref ?? null;
      for (const row of rows) expect([row.file, row.line, row.turn_ref]).toEqual([at().session_path, row.line, turnOf(row.line)]);
      const { turn_start_line: start } = turn();
      expect(rows.find((r) => r.line === start)).toMatchObject({ actor: "user", turn_ref: c.chained });
      expect(result.timeline.filter((r) => r.source === "audit").length).toBeGreaterThan(0);
    });

    it("query_ledger_full: the session's main ledger, one entry per physical line with its whole record", async () => {
      const lines = await physical();
      const page = same<{ ledger: string; file: string; total: number; entries: { line: number; record: unknown }[] }>(await call("query_ledger_full", { ...ref(), ledger: "main", max_entries: 500, max_bytes: 10_000_000 }));
      expect(page).toMatchObject({ ledger: "main", file: at().session_path, total: lines.length, truncated: false, next_offset: null });
      expect(page.entries.map((e) => e.line)).toEqual(lines.map((_, i) => i + 1));
      const { turn_start_line: start } = turn();
      expect(page.entries[start - 1]!.record).toEqual(recordOf(lines[start - 1]!));
      expect(page.entries.every((e) => e.record !== null)).toBe(true);
    });

    it("grep_jsonl: the session's matching physical lines, raw", async () => {
      const lines = await physical();
      const re = new RegExp(c.pattern);
      const expected = lines.flatMap((raw, i) => (re.test(raw) ? [{ line_number: i + 1, raw }] : []));
      expect(expected.length).toBeGreaterThan(0);
      const result = same<{ count: number; truncated: boolean; entries: { session_ref: string; file: string; line_number: number; raw: string; raw_clipped: boolean }[] }>(
        await call("grep_jsonl", { ...ref(), pattern: c.pattern, limit: 200, max_bytes: 10_000_000 }),
      );
      expect(result).toMatchObject({ count: expected.length, truncated: false });
      expect(result.entries.map((e) => e.line_number)).toEqual(expected.map((e) => e.line_number));
      for (const [i, e] of result.entries.entries()) {
        expect([e.session_ref, e.file]).toEqual([at().session_ref, at().session_path]);
        // A long line comes clipped to a piece holding its match (raw_clipped); a short one whole.
        if (e.raw_clipped) {
          expect(expected[i]!.raw).toContain(e.raw);
          expect(e.raw).toMatch(re);
        } else expect(e.raw).toBe(expected[i]!.raw);
      }
    });

    it("search_sessions with agent:<name>: only that agent's sessions, each hit in the turn of its line", async () => {
      type Hits = { total: number; hits: { project_key: string; session_ref: string; line_number: number; turn_ref: string | null }[] };
      const found = same<Hits>(await call("search_sessions", { query: `${c.word} agent:${c.source}`, limit: 200 }));
      expect(found.total).toBeGreaterThan(0);
      for (const hit of found.hits) expect(bySource.get(c.source)).toContain(`${hit.project_key}/${hit.session_ref}`);
      const own = found.hits.filter((h) => h.project_key === at().project_key && h.session_ref === at().session_ref);
      expect(own.length).toBeGreaterThan(0);
      const turnOf = (line: number) => c.turns.find((t) => line >= t.turn_start_line && line <= t.turn_end_line)?.turn_ref ?? null;
      for (const hit of own) expect(hit.turn_ref).toBe(turnOf(hit.line_number));
      const other = c.source === "aider" ? "gemini-cli" : "aider";
      const elsewhere = same<Hits>(await call("search_sessions", { query: `${c.word} agent:${other}`, limit: 200 }));
      for (const hit of elsewhere.hits) expect(bySource.get(c.source)).not.toContain(`${hit.project_key}/${hit.session_ref}`);
    });
  });

  it("get_usage by source: a row per agent with usage, the sum of its sessions' list rows", async () => {
    const usage = same<{ group_by: string; rows: { key: string; input_tokens: number; output_tokens: number; total_tokens: number }[] }>(await call("get_usage", { group_by: "source" }));
    expect(usage.group_by).toBe("source");
    const totals = new Map<string, number>();
    for (const [source, sessions] of bySource) {
      for (const projectKey of new Set(sessions.map((s) => s.split("/")[0]!))) {
        const listed = JSON.parse((await one("http", "list_sessions", { project_key: projectKey, source, limit: 500 })).text) as { sessions: { total_tokens: number | null }[] };
        for (const s of listed.sessions) totals.set(source, (totals.get(source) ?? 0) + (s.total_tokens ?? 0));
      }
    }
    const withUsage = [...totals].filter(([, total]) => total > 0).sort(([a], [b]) => a.localeCompare(b));
    expect(usage.rows.map((r) => [r.key, r.total_tokens]).sort(([a], [b]) => String(a).localeCompare(String(b)))).toEqual(withUsage);
    expect(usage.rows.find((r) => r.key === "copilot-cli")).toMatchObject({ input_tokens: 11637, output_tokens: 15, reasoning_tokens: 64, total_tokens: 11716 });
    expect(usage.rows.find((r) => r.key === "opencode")).toMatchObject({ total_tokens: 22999 });
    // What an agent reads before calling it says so: every agent's sessions, grouped by source among the rest.
    const tool = findTool("get_usage")!;
    expect(tool.description).toMatch(/^Tokens and cost in USD of every session of the workspace, whichever agent wrote it, grouped by .*, source \(the agent: key is its name\) or session/);
    expect(tool.inputHint).toMatch(/^group_by is day, week, month, model, project, source or session;/);
  });
});
