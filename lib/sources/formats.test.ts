/** The source registry (issue 38): each format answers its descriptor, and nothing above lib/sources names a source. */
import fs from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { AGENT_SOURCES } from "@/lib/sources/agents";
import type { CountedRequest } from "@/lib/sources/common/usage-rules";
import { SOURCE_LABELS, TRANSCRIPT_SOURCES } from "@/lib/sources/common/schema";
import type { HeadFacts, TranscriptFormat } from "@/lib/sources/common/source-format";
import { SOURCE_FORMATS, sourceFormat, transcriptFormat } from "@/lib/sources/formats";
import { lineHeadlines } from "@/lib/sources/headlines";

const REPO = path.resolve(__dirname, "..", "..");
/** The folders above lib/sources that must reach a source through the registry only. */
const SCANNED = ["lib", "server", "app", "components"];
/** Every name a source goes by: index rows' names, and the `claude` root kind of sources.json. */
const NAMES = ["claude", ...TRANSCRIPT_SOURCES].map((n) => n.replace(/-/g, "\\-")).join("|");
/** A source name compared with something (`=== "codex"`, `"aider" !==`, `case "claude-code":`). */
const NAME_COMPARISON = new RegExp(`(?:===|!==|==|!=)\\s*"(?:${NAMES})"|"(?:${NAMES})"\\s*(?:===|!==|==|!=)|case\\s+"(?:${NAMES})"`);

/**
 * Files still comparing source names, by repo-relative path → how many lines, each with the
 * reason. Keep it short: a count that no longer matches fails, so a fixed file is taken off.
 */
const ALLOWED: ReadonlyMap<string, { lines: number; reason: string }> = new Map([
  ["lib/workspace/sources.ts", { lines: 2, reason: "sources.json keeps `claude` and `codex` root lists beside `agents` (owner: the sources file's schema, issue 39)" }],
]);

/** Source files (not tests) under `dir`, lib/sources left out: each repo-relative path. */
function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(REPO, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (rel !== "lib/sources" && entry.name !== "node_modules") out.push(...sourceFiles(rel));
    } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out.push(rel);
  }
  return out;
}

/** Each scanned file comparing a source name, with its count of such lines. */
function nameComparisons(): Map<string, number> {
  const found = new Map<string, number>();
  for (const file of SCANNED.flatMap(sourceFiles)) {
    const lines = fs.readFileSync(path.join(REPO, file), "utf8").split("\n").filter((line) => NAME_COMPARISON.test(line));
    if (lines.length > 0) found.set(file, lines.length);
  }
  return found;
}

describe("nothing above lib/sources names a source except through the registry", () => {
  const found = nameComparisons();

  it("no file compares a source name (lib/sources/formats is the way to a source's behaviour)", () => {
    const unexpected = [...found].filter(([file]) => !ALLOWED.has(file)).map(([file, n]) => `${file}: ${n} line(s)`);
    expect(unexpected).toEqual([]);
  });

  it("the allowed files still compare exactly as many names (a fixed one is taken off the list)", () => {
    const stale = [...ALLOWED].filter(([file, allowed]) => found.get(file) !== allowed.lines).map(([file, allowed]) => `${file}: ${found.get(file) ?? 0} line(s), allowed ${allowed.lines}`);
    expect(stale).toEqual([]);
  });

  it("the check sees a comparison in every spelling", () => {
    for (const line of ['if (source === "codex") {', 'x = "claude-code" !== s;', '    case "aider":', 'kind == "claude"', 'a != "gemini-cli"']) expect(NAME_COMPARISON.test(line), line).toBe(true);
    for (const line of ['const s = "codex";', 'label: "claude code"', 'source: "opencode",', 'x === "codexes"']) expect(NAME_COMPARISON.test(line), line).toBe(false);
  });
});

/** An environment holding only `vars`. */
const env = (vars: Record<string, string> = {}) => vars as NodeJS.ProcessEnv;

/** A parsed JSONL line. */
const json = (value: unknown) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>;

/** One line of each JSONL format and what its descriptor must answer of it. */
const SAMPLES: Record<string, { user: Record<string, unknown>; call: Record<string, unknown>; usage: Record<string, unknown>; counted: [number, number, number]; head: Record<string, unknown>; headFacts: Partial<HeadFacts> }> = {
  "claude-code": {
    user: json({ type: "user", timestamp: "2026-01-01T10:00:00Z", message: { role: "user", content: "fix the test" } }),
    call: json({ type: "assistant", timestamp: "2026-01-01T10:00:01Z", message: { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "npm test" } }] } }),
    usage: json({ type: "assistant", timestamp: "2026-01-01T10:00:02Z", requestId: "r1", message: { id: "m1", model: "claude-sonnet-4-5", role: "assistant", content: [], usage: { input_tokens: 10, output_tokens: 3, cache_read_input_tokens: 7, cache_creation_input_tokens: 4 } } }),
    // Fresh input, cache reads, output: Claude Code reports input without its cache reads.
    counted: [10, 7, 3],
    head: json({ type: "user", version: "2.0.1", cwd: "/p", gitBranch: "main", message: { role: "user", content: "hi" } }),
    headFacts: { client_version: "2.0.1", cwd: "/p", git_branch: "main" },
  },
  codex: {
    user: json({ timestamp: "2026-01-01T10:00:00Z", type: "response_item", payload: { type: "message", role: "user", content: [{ type: "input_text", text: "fix the test" }] } }),
    call: json({ timestamp: "2026-01-01T10:00:01Z", type: "response_item", payload: { type: "function_call", name: "shell", arguments: JSON.stringify({ command: ["bash", "-lc", "npm test"] }), call_id: "c1" } }),
    usage: json({ timestamp: "2026-01-01T10:00:02Z", type: "event_msg", payload: { type: "token_count", info: { total_token_usage: { input_tokens: 10, cached_input_tokens: 7, output_tokens: 3 } } } }),
    // Codex's input includes its cached part: 3 fresh.
    counted: [3, 7, 3],
    head: json({ timestamp: "2026-01-01T10:00:00Z", type: "session_meta", payload: { id: "s", cwd: "/p", cli_version: "0.50.0", git: { branch: "main" } } }),
    headFacts: { client_version: "0.50.0", cwd: "/p", git_branch: "main" },
  },
};

describe("every registered source answers its descriptor", () => {
  it("the registry holds each transcript source once, in the pages' order, by its own name and label", () => {
    expect(SOURCE_FORMATS.map((f) => f.name)).toEqual([...TRANSCRIPT_SOURCES]);
    for (const format of SOURCE_FORMATS) {
      expect(sourceFormat(format.name)).toBe(format);
      expect(format.label).toBe(SOURCE_LABELS[format.name]);
      // A source is read one way: its own JSONL line by line, or its agent's replay of the whole file.
      expect((format.transcript === null) !== (format.agent === null), format.name).toBe(true);
      expect(transcriptFormat(format.name)).toBe(format.transcript);
      if (format.transcript !== null) expect(format.transcript.name).toBe(format.name);
      // Headlines of JSONL lines; an agent's reader writes each record's own.
      expect(lineHeadlines(format.name) === null, format.name).toBe(format.agent !== null);
      expect(typeof format.workscopeId).toBe("function");
    }
    expect(SOURCE_FORMATS.flatMap((f) => (f.agent ? [f.agent] : []))).toEqual([...AGENT_SOURCES]);
    for (const agent of AGENT_SOURCES) expect(sourceFormat(agent.name)?.agent).toBe(agent);
    // Default roots: where each writes, given a home and an environment (existing or not).
    expect(sourceFormat("claude-code")!.defaultRoots("/h", env())).toEqual(["/h/.claude/projects"]);
    expect(sourceFormat("codex")!.defaultRoots("/h", env())).toEqual(["/h/.codex/sessions", "/h/.codex/archived_sessions"]);
    expect(sourceFormat("codex")!.defaultRoots("/h", env({ CODEX_HOME: "/c" }))).toEqual(["/c/sessions", "/c/archived_sessions"]);
    for (const agent of AGENT_SOURCES) expect(sourceFormat(agent.name)!.defaultRoots("/h", env())).toEqual(agent.defaultRoots("/h", env()));
    expect(sourceFormat("claude")).toBeNull();
    expect(transcriptFormat("unknown")).toBeNull();
  });

  it("each JSONL format reads its own lines: compact record, headline, scan facts, usage, head facts", () => {
    const jsonl = SOURCE_FORMATS.filter((f) => f.transcript !== null);
    expect(jsonl.map((f) => f.name).sort()).toEqual(Object.keys(SAMPLES).sort());
    for (const format of jsonl) {
      const t: TranscriptFormat = format.transcript!;
      const sample = SAMPLES[format.name]!;
      expect(t.compact(sample.user), format.name).toMatchObject({ role: "user", text_preview: "fix the test" });
      const call = t.compact(sample.call);
      expect(call.tool_uses.length, format.name).toBe(1);
      const calls = new Map<string, string>();
      expect(lineHeadlines(format.name)!.of(sample.call, JSON.stringify(sample.call), call, calls), format.name).toContain("npm test");
      expect(calls.size, format.name).toBe(1);
      expect(JSON.stringify(sample.call).includes(t.callMarker), format.name).toBe(true);
      expect(t.facts.of(sample.user).userText, format.name).toBe("fix the test");
      expect(t.facts.of(sample.call).toolCalls.map((c) => c.family), format.name).toEqual(["run"]);
      const reader = t.facts.reader({ skim: false });
      expect(reader.plan(), format.name).toBeNull();
      expect(reader.parsed(sample.user).userText, format.name).toBe("fix the test");
      const line = Buffer.from(JSON.stringify(sample.usage));
      expect(t.usage.wanted(line) && t.usage.counts(sample.usage), format.name).toBe(true);
      const out: CountedRequest[] = [];
      t.usage.session(out).file("main")(t.usage.build(line, 0, line.length)!, 0, 3);
      expect(out.map((r) => [r.line, r.input, r.cacheRead, r.output]), format.name).toEqual([[3, ...sample.counted]]);
      const facts: HeadFacts = { model: null, client_version: null, cwd: null, git_branch: null };
      t.headFacts(sample.head, facts);
      expect(facts, format.name).toMatchObject(sample.headFacts);
      expect(t.viewer.extras(sample.user).group, format.name).toBe("conversation");
    }
  });
});
