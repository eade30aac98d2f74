/**
 * Issue 37 on issue 38's agents: search_sessions finds every word of Gemini CLI, Copilot CLI,
 * OpenCode and Aider sessions as their readers show it (the source contract), with their roles,
 * tools, errors and `agent:` filters; hits equal a scan of the lines' visible text.
 */
import fs from "node:fs/promises";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { extractFileLines, LinePrefetch, wholeFileRange } from "@/lib/catalog/extract-lines";
import { HIT_CLOSE, HIT_OPEN, type SearchHit, searchSessionsInputSchema } from "@/lib/catalog/schema";
import { refreshCatalog } from "@/lib/catalog/refresh";
import { searchSessions } from "@/lib/catalog/search";
import type { CoreContext } from "@/lib/context";
import { readAgentTranscript } from "@/lib/sources/agent-transcripts";
import { AGENT_SOURCE_NAMES, type AgentRecord } from "@/lib/sources/common/agent-source";
import { prepareAgentsWorkspace } from "@/lib/testing/agents-workspace";
import { HAS_SHARED, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { loadWorkspace } from "@/lib/workspace/load";

/** One agent session's transcript as its reader gives it (the whole file), with where it is. */
type Scanned = { projectKey: string; sessionRef: string; source: string; file: string; records: AgentRecord[] };

/** `project_key/session_ref:line`, how a hit and a scanned line are compared. */
const at = (projectKey: string, sessionRef: string, line: number) => `${projectKey}/${sessionRef}:${line}`;

/** Words taken from deep inside each agent's lines: tool outputs, thinking, system prompts, Aider replies. */
const DEEP_WORDS: Record<(typeof AGENT_SOURCE_NAMES)[number], string[]> = {
  // A `ls` output 40 KB into a tool result; a thought of the model; a file's source read by a tool.
  "gemini-cli": ["expert-writing-migrations", "Reflecting on the Validator", "integer_validator = RegexValidator"],
  // The end of a 24 KB system message.
  "copilot-cli": ["alternative tools or methods", "Respond concisely to the user"],
  // A write tool's input path, the session's title line.
  opencode: ["cam/tmp/a/test.txt", "Adding test.txt with"],
  // The model's replies.
  aider: ["exponential backoff", "Wrap the call in a loop", "reads from the environment"],
};

describe.skipIf(!HAS_SHARED)("search over agent sessions (agents-home prepared)", () => {
  let root = "";
  let ctx: CoreContext;
  let scanned: Scanned[] = [];

  beforeAll(async () => {
    ({ root, ctx } = await prepareAgentsWorkspace());
    for (const project of (await loadWorkspace(ctx)).projects) {
      for (const row of project.rows) {
        const file = path.join(project.dir, row.session_path);
        const transcript = await readAgentTranscript(row.source, file);
        if (transcript !== null) scanned.push({ projectKey: project.projectKey, sessionRef: row.session_ref, source: row.source, file, records: transcript.records });
      }
    }
  }, 120_000);

  afterAll(async () => {
    if (root) await fs.rm(root, { recursive: true, force: true });
    scanned = [];
  });

  /** Every hit of `query`, page by page. */
  async function allHits(query: string): Promise<SearchHit[]> {
    const hits: SearchHit[] = [];
    for (let offset = 0; ; offset += 200) {
      const page = await searchSessions(ctx, searchSessionsInputSchema.parse({ query, limit: 200, offset }));
      expect(page.status).toBe("ok");
      expect(page.coverage.lines_unchecked).toBe(0);
      hits.push(...page.hits);
      if (offset + 200 >= page.total) return hits;
    }
  }

  /** A record's searchable words: its text, then its reasoning (which the compact view leaves out). */
  const wordsOf = (r: AgentRecord): string => (r.reasoning === "" ? r.text : `${r.text}\n${r.reasoning}`);

  /** The lines whose visible text holds `phrase` (case-insensitive), of sessions `keep` accepts. */
  function scan(phrase: string, keep: (s: Scanned, r: AgentRecord) => boolean = () => true): Set<string> {
    const needle = phrase.toLowerCase();
    const out = new Set<string>();
    for (const s of scanned) for (const r of s.records) if (keep(s, r) && wordsOf(r).toLowerCase().includes(needle)) out.add(at(s.projectKey, s.sessionRef, r.line));
    return out;
  }

  /** The scanned session and record of a hit. */
  function lineOf(hit: SearchHit): { session: Scanned; record: AgentRecord } {
    const session = scanned.find((s) => s.projectKey === hit.project_key && s.sessionRef === hit.session_ref)!;
    return { session, record: session.records[hit.line_number - 1]! };
  }

  /** The hit's snippet came from its own line: every piece of it is in the line's text, and it marks `needle`. */
  function expectOwnSnippet(hit: SearchHit, needle: string): void {
    const body = wordsOf(lineOf(hit).record).replace(/\s+/g, " ");
    const where = `${hit.session_ref} line ${hit.line_number}`;
    expect(hit.snippet.toLowerCase(), where).toContain(`${HIT_OPEN}${needle.toLowerCase()}${HIT_CLOSE}`);
    const pieces = hit.snippet.replaceAll(HIT_OPEN, "").replaceAll(HIT_CLOSE, "").split("…").map((p) => p.trim()).filter((p) => p !== "");
    for (const piece of pieces) expect(body, where).toContain(piece);
  }

  it("prepared sessions of all four agents", () => {
    expect(new Set(scanned.map((s) => s.source))).toEqual(new Set(AGENT_SOURCE_NAMES));
  });

  it("finds words from deep inside each agent's lines: the sessions and lines a scan of their visible text finds, with the line's role and time, snippets from the hit's own line", async () => {
    for (const source of AGENT_SOURCE_NAMES) {
      for (const phrase of DEEP_WORDS[source]) {
        const expected = scan(phrase);
        const inSource = scan(phrase, (s) => s.source === source);
        expect(inSource.size, `${source}: "${phrase}" is in its lines`).toBeGreaterThan(0);
        const hits = await allHits(`"${phrase}"`);
        expect(new Set(hits.map((h) => at(h.project_key, h.session_ref, h.line_number))), `"${phrase}"`).toEqual(expected);
        for (const hit of hits) {
          const { record } = lineOf(hit);
          expect(hit.role, `${hit.session_ref} line ${hit.line_number}`).toBe(record.role === "system" || record.role === null ? "other" : record.role);
          expect(hit.time).toBe(record.time);
          expect(hit.file.kind).toBe("main");
          expectOwnSnippet(hit, phrase);
        }
      }
    }
    // Deep: at least one word of each agent sits past the first 1,000 characters of its line.
    for (const source of AGENT_SOURCE_NAMES.filter((s) => s !== "aider" && s !== "opencode")) {
      const depth = Math.max(...DEEP_WORDS[source].flatMap((w) => scanned.filter((s) => s.source === source).flatMap((s) => s.records.map((r) => wordsOf(r).toLowerCase().indexOf(w.toLowerCase())))));
      expect(depth, source).toBeGreaterThan(1000);
    }
  }, 120_000);

  it("agent:NAME narrows a query to that agent's sessions, each agent's hits those of the scan", async () => {
    // A word every agent's sessions have.
    const all = await allHits("add");
    expect(new Set(all.map((h) => at(h.project_key, h.session_ref, h.line_number)))).toEqual(scan("add"));
    let sum = 0;
    for (const source of AGENT_SOURCE_NAMES) {
      const hits = await allHits(`add agent:${source}`);
      expect(hits.length, source).toBeGreaterThan(0);
      for (const hit of hits) expect(lineOf(hit).session.source).toBe(source);
      expect(new Set(hits.map((h) => at(h.project_key, h.session_ref, h.line_number))), source).toEqual(scan("add", (s) => s.source === source));
      sum += hits.length;
      // The structured field means the same.
      const bySource = await searchSessions(ctx, searchSessionsInputSchema.parse({ query: "add", source, limit: 1 }));
      expect(bySource.total).toBe(hits.length);
    }
    expect(sum).toBe(all.length);
    // A deep word of one agent is not found when another is asked for.
    expect((await allHits('"exponential backoff" agent:gemini-cli')).length).toBe(0);
  }, 120_000);

  it("tool:NAME and is:error find a Gemini failed tool call and Aider's 'Skipping edits' line, as their readers record them", async () => {
    const failed = (name: string) => {
      const out = new Set<string>();
      for (const s of scanned) for (const r of s.records) if (r.isError && r.text !== "" && [...r.calls.map((c) => c.name), ...r.results.map((x) => x.name)].includes(name)) out.add(at(s.projectKey, s.sessionRef, r.line));
      return out;
    };
    const readFailures = await allHits("tool:read_file is:error");
    expect(readFailures.length).toBeGreaterThan(0);
    expect(new Set(readFailures.map((h) => at(h.project_key, h.session_ref, h.line_number)))).toEqual(failed("read_file"));
    for (const hit of readFailures) {
      const { session, record } = lineOf(hit);
      expect(session.source).toBe("gemini-cli");
      expect(record.results.some((r) => r.name === "read_file" && r.isError)).toBe(true);
    }
    // The same call's file: `file:` finds the failed read by the path its call names.
    const readFile = lineOf(readFailures[0]!).record.calls.find((c) => c.name === "read_file")!.files[0]!;
    const byFile = await allHits(`file:${readFile} is:error`);
    expect(byFile.map((h) => at(h.project_key, h.session_ref, h.line_number))).toContain(at(readFailures[0]!.project_key, readFailures[0]!.session_ref, readFailures[0]!.line_number));

    const skipped = await allHits('tool:edit is:error "Skipping edits"');
    expect(skipped).toHaveLength(1);
    const { session, record } = lineOf(skipped[0]!);
    expect(session.source).toBe("aider");
    expect(record.text).toMatch(/^Skipping edits to /);
    expect(skipped[0]).toMatchObject({ role: "tool", turn_ref: "T0002" });
    expectOwnSnippet(skipped[0]!, "Skipping edits");
    expect(new Set((await allHits("tool:edit is:error")).map((h) => at(h.project_key, h.session_ref, h.line_number)))).toEqual(failed("edit"));
    // Every error line of the agents, and none that is not one.
    const errors = new Set<string>();
    for (const s of scanned) for (const r of s.records) if (r.isError && r.text !== "") errors.add(at(s.projectKey, s.sessionRef, r.line));
    expect(new Set((await allHits("is:error")).map((h) => at(h.project_key, h.session_ref, h.line_number)))).toEqual(errors);
  }, 120_000);

  it("extracts an agent session's lines on a worker as on this thread", async () => {
    const gemini = scanned.filter((s) => s.source === "gemini-cli").sort((a, b) => b.records.length - a.records.length)[0]!;
    const prefetch = new LinePrefetch(4096, 1);
    try {
      prefetch.want(gemini.file, "gemini-cli");
      const onWorker = await prefetch.take(gemini.file);
      const here = await extractFileLines(gemini.file, await wholeFileRange(gemini.file), 4096, "gemini-cli");
      expect(onWorker).toEqual(here);
      expect(here.lines.length).toBe(gemini.records.filter((r) => r.text !== "").length);
      const k = gemini.records.findIndex((r) => r.calls.length > 0 && r.results.some((x) => x.isError));
      const row = Array.from(here.lines).indexOf(k + 1);
      expect(here.errors[row]).toBe(1);
      expect(here.tools[row]).toBe(gemini.records[k]!.calls[0]!.name);
    } finally {
      await prefetch.close();
    }
  }, 60_000);

  // Last: it changes a session of the shared workspace.
  it("a grown agent session is read again whole: a Gemini message restated on a new line moves its failed call there", async () => {
    const before = await allHits("tool:read_file is:error");
    const first = before[0]!;
    const { session } = lineOf(first);
    const raw = (await fs.readFile(session.file, "utf8")).split("\n")[first.line_number - 1]!;
    // Gemini rewrites a message by appending it again with the same id: the older line gives up its calls and results.
    await fs.appendFile(session.file, `${raw}\n`);
    const grown = (await readAgentTranscript(session.source, session.file))!;
    const added = grown.records.length;
    expect(grown.records[first.line_number - 1]!.isError).toBe(false);
    expect(grown.records[added - 1]!.isError).toBe(true);
    expect(await refreshCatalog(ctx)).toMatchObject({ sessions_updated: 1 });
    const after = await allHits("tool:read_file is:error");
    const lines = after.filter((h) => h.project_key === first.project_key && h.session_ref === first.session_ref).map((h) => h.line_number);
    expect(lines).toContain(added);
    expect(lines).not.toContain(first.line_number);
    expect(after).toHaveLength(before.length);
    // The older line keeps its words (a reader still sees them), without the call.
    const own = grown.records[added - 1]!;
    const words = (own.reasoning === "" ? own.text : own.reasoning).split("\n")[0]!.slice(0, 60);
    expect(new Set((await allHits(`"${words}"`)).filter((h) => h.session_ref === first.session_ref && h.project_key === first.project_key).map((h) => h.line_number))).toEqual(new Set([first.line_number, added]));
  }, 60_000);
});

if (!HAS_SHARED) console.warn(SKIP_SHARED_MESSAGE);
