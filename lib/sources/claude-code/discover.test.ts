/** Tests of discoverClaudeSessions on a synthetic tree. */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { CLAUDE_SKIP_REASONS, discoverClaudeSessions, type ClaudeCandidate } from "@/lib/sources/claude-code/discover";
import { probeClaudeTranscript } from "@/lib/sources/claude-code/probe";
import type * as ProbeModule from "@/lib/sources/claude-code/probe";

// Wrap the probe so tests can assert which files discovery opened.
vi.mock("@/lib/sources/claude-code/probe", async (importOriginal) => {
  const original = await importOriginal<typeof ProbeModule>();
  return { ...original, probeClaudeTranscript: vi.fn(original.probeClaudeTranscript) };
});
const probed = () => vi.mocked(probeClaudeTranscript).mock.calls.map(([file]) => file);
beforeEach(() => {
  vi.mocked(probeClaudeTranscript).mockClear();
});

const SHARED = path.resolve(process.cwd(), "../shared");
const CORPUS = path.join(SHARED, "corpus", "claude-code");
const HAS_SHARED = existsSync(CORPUS);

const MAIN_ID = "11111111-2222-4333-8444-555555555555";
const envelope = (sessionId: string, isSidechain: boolean) =>
  JSON.stringify({ type: "user", sessionId, isSidechain, timestamp: "2026-05-11T16:00:00Z", message: { role: "user", content: "hi" } });

describe("discoverClaudeSessions (synthetic tree)", () => {
  let root = "";
  const p = (...parts: string[]) => path.join(root, ...parts);
  async function put(relative: string, text: string) {
    await mkdir(path.dirname(p(relative)), { recursive: true });
    await writeFile(p(relative), text);
  }

  beforeAll(async () => {
    root = await realpath(await mkdtemp(path.join(os.tmpdir(), "casefile-claude-discover-")));
    const snapshot = JSON.stringify({ type: "file-history-snapshot", messageId: "m" });
    await put(`proj-a/${MAIN_ID}.jsonl`, `${snapshot}\n${envelope(MAIN_ID, false)}\n`);
    await put(`proj-a/${MAIN_ID}/subagents/agent-b.jsonl`, envelope(MAIN_ID, true));
    await put(`proj-a/${MAIN_ID}/subagents/agent-a.jsonl`, envelope(MAIN_ID, true));
    await put(`proj-a/${MAIN_ID}/subagents/agent-a.meta.json`, "{}");
    await put(`proj-a/${MAIN_ID}/tool-results/toolu_01.txt`, "persisted output");
    await put(`proj-a/agent-1234abcd.jsonl`, envelope(MAIN_ID, true)); // era 1 flat sidechain
    await put("proj-a/tool_heavy.jsonl", envelope("other-session", false)); // non-UUID name
    await put("proj-a/notes.txt", "ignored");
    await put("proj-b/orphan-id/subagents/agent-c.jsonl", envelope("orphan-id", true)); // no proj-b/orphan-id.jsonl
    await put("proj-b/agent-lost.jsonl", envelope("nobody", true)); // sidechain without parent
    await put("proj-b/empty.jsonl", "");
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("finds main sessions, attaches side files and reports the rest", async () => {
    const result = await discoverClaudeSessions(root);
    expect(result.candidates).toEqual<ClaudeCandidate[]>([
      {
        path: p(`proj-a/${MAIN_ID}.jsonl`),
        sessionId: MAIN_ID,
        subagents: [
          p(`proj-a/${MAIN_ID}/subagents/agent-a.jsonl`),
          p(`proj-a/${MAIN_ID}/subagents/agent-b.jsonl`),
          p("proj-a/agent-1234abcd.jsonl"),
        ],
        toolResults: [p(`proj-a/${MAIN_ID}/tool-results/toolu_01.txt`)],
      },
      { path: p("proj-a/tool_heavy.jsonl"), sessionId: "tool_heavy", subagents: [], toolResults: [] },
      { path: p("proj-b/empty.jsonl"), sessionId: "empty", subagents: [], toolResults: [] },
    ]);
    expect(result.skipped).toEqual([
      { path: p("proj-b/agent-lost.jsonl"), reason: CLAUDE_SKIP_REASONS.sidechain },
      { path: p("proj-b/orphan-id/subagents/agent-c.jsonl"), reason: CLAUDE_SKIP_REASONS.orphanSubagent },
    ]);
  });

  it("never opens a path with a subagents component", async () => {
    await discoverClaudeSessions(root);
    expect(probed().length).toBeGreaterThan(0);
    expect(probed().filter((file) => file.split(path.sep).includes("subagents"))).toEqual([]);
  });

  it("accepts one project directory or one .jsonl file as the root", async () => {
    const project = await discoverClaudeSessions(p("proj-a"));
    expect(project.candidates.map((c) => c.sessionId)).toEqual([MAIN_ID, "tool_heavy"]);
    const single = await discoverClaudeSessions(p(`proj-a/${MAIN_ID}.jsonl`));
    expect(single).toEqual({
      candidates: [{ path: p(`proj-a/${MAIN_ID}.jsonl`), sessionId: MAIN_ID, subagents: [], toolResults: [] }],
      skipped: [],
    });
    const subagent = await discoverClaudeSessions(p(`proj-a/${MAIN_ID}/subagents/agent-a.jsonl`));
    expect(subagent.candidates).toEqual([]);
    expect(subagent.skipped).toEqual([{ path: p(`proj-a/${MAIN_ID}/subagents/agent-a.jsonl`), reason: CLAUDE_SKIP_REASONS.orphanSubagent }]);
  });

  it("reports a missing root or a non-.jsonl file root instead of throwing", async () => {
    expect(await discoverClaudeSessions(p("nope"))).toEqual({
      candidates: [],
      skipped: [{ path: p("nope"), reason: CLAUDE_SKIP_REASONS.missingRoot }],
    });
    expect((await discoverClaudeSessions(p("proj-a/notes.txt"))).skipped[0]?.reason).toBe(CLAUDE_SKIP_REASONS.notJsonl);
  });
});

describe.skipIf(!HAS_SHARED)(`discoverClaudeSessions on ${CORPUS} (skipped when that folder is absent)`, () => {
  const rel = (file: string) => path.relative(CORPUS, file);
  const names = (files: string[]) => files.map((f) => path.basename(f));

  it("lists exactly the main sessions of both eras, POSIX-sorted, with nothing skipped", async () => {
    const result = await discoverClaudeSessions(CORPUS);
    expect(result.skipped).toEqual([]);
    expect(result.candidates.map((c) => rel(c.path))).toEqual([
      "misc/codemie-ai__codemie-code/tests/integration/session/fixtures/session-9eda1058.jsonl",
      "misc/marot__spotter/test/fixtures/transcripts/258c7280-ae70-4798-800f-63464d01a85d.jsonl",
      "misc/marot__spotter/test/fixtures/transcripts/short.jsonl",
      "misc/marot__spotter/test/fixtures/transcripts/tool_heavy.jsonl",
      "misc/oneryalcin__fasthooks/specs/data/sample_main_transcript.jsonl",
      "phantom-reads/session-examples/2.0.58-bad/3020c1e3-a661-4879-8854-35eb023fd030.jsonl",
      "phantom-reads/session-examples/2.0.58-good/c489af7a-584d-4276-a76c-ddb29f988ace.jsonl",
      "phantom-reads/session-examples/2.0.58-init-only/sample-session.jsonl",
      "phantom-reads/session-examples/2.0.59-bad/780b2d8c-80cd-4521-9a9e-f8be10b45e9e.jsonl",
      "phantom-reads/session-examples/2.0.60-bad/b6240830-5041-465e-aad0-910c13cd9b6c.jsonl",
      "phantom-reads/session-examples/2.0.60-good/2caf2337-66bf-41d1-ad27-9d2cab7bd2dc.jsonl",
      "phantom-reads/session-examples/2.1.3-bad/c172889a-aa67-452b-b5c9-81f1e500de7d.jsonl",
      "phantom-reads/session-examples/2.1.6-bad/bf88e2ff-ac8b-4f29-8dbf-c2467325fe4e.jsonl",
      "phantom-reads/session-examples/2.1.6-good/0357781f-d024-4cef-8496-56501c76afb3.jsonl",
    ]);
    for (const c of result.candidates) {
      expect(c.sessionId).toBe(path.basename(c.path, ".jsonl"));
      expect(names(c.subagents).every((n) => n.includes("agent"))).toBe(true);
    }
    // No agent file is ever a candidate, and no subagents path is ever opened.
    expect(result.candidates.some((c) => path.basename(c.path).includes("agent"))).toBe(false);
    expect(probed().filter((file) => file.includes(`${path.sep}subagents${path.sep}`))).toEqual([]);
  });

  it("attaches era 1 flat agent-*.jsonl files by their sessionId field", async () => {
    const byName = new Map((await discoverClaudeSessions(CORPUS)).candidates.map((c) => [path.basename(c.path), c]));
    expect(names(byName.get("c489af7a-584d-4276-a76c-ddb29f988ace.jsonl")?.subagents ?? [])).toEqual([
      "agent-07bd3f25.jsonl",
      "agent-17c7da61.jsonl",
      "agent-af401ba5.jsonl",
    ]);
    expect(names(byName.get("2caf2337-66bf-41d1-ad27-9d2cab7bd2dc.jsonl")?.subagents ?? [])).toEqual([
      "agent-99b9cd12.jsonl",
      "agent-b0a81b9b.jsonl",
      "agent-f905a488.jsonl",
    ]);
    // Renamed main files: the sidechain's sessionId matches the only sibling with that sessionId field.
    expect(names(byName.get("sample-session.jsonl")?.subagents ?? [])).toEqual(["sample-agent.jsonl"]);
    expect(names(byName.get("sample_main_transcript.jsonl")?.subagents ?? [])).toEqual(["sample_agent_sidechain.jsonl"]);
    // 2.0.60-bad mixes both eras: flat agent files plus a <uuid>/tool-results folder.
    const mixed = byName.get("b6240830-5041-465e-aad0-910c13cd9b6c.jsonl");
    expect(names(mixed?.subagents ?? [])).toEqual(["agent-1698e3ad.jsonl", "agent-375bb764.jsonl", "agent-a382dbae.jsonl"]);
    expect(mixed?.toolResults).toHaveLength(13);
  });

  it("attaches era 2 <uuid>/subagents and <uuid>/tool-results files", async () => {
    const byName = new Map((await discoverClaudeSessions(CORPUS)).candidates.map((c) => [path.basename(c.path), c]));
    const spotter = byName.get("258c7280-ae70-4798-800f-63464d01a85d.jsonl");
    expect(spotter?.subagents.map(rel)).toEqual([
      "misc/marot__spotter/test/fixtures/transcripts/258c7280-ae70-4798-800f-63464d01a85d/subagents/agent-a881341.jsonl",
      "misc/marot__spotter/test/fixtures/transcripts/258c7280-ae70-4798-800f-63464d01a85d/subagents/agent-acompact-fffbd0.jsonl",
    ]);
    expect(spotter?.toolResults).toEqual([]);
    const bad213 = byName.get("c172889a-aa67-452b-b5c9-81f1e500de7d.jsonl");
    expect(names(bad213?.subagents ?? [])).toEqual(["agent-a8ad886.jsonl", "agent-a930f76.jsonl", "agent-aae21dd.jsonl", "agent-ae12592.jsonl"]);
    expect(bad213?.toolResults).toHaveLength(17);
    expect(bad213?.toolResults.every((f) => /tool-results[/\\]toolu_\w+\.txt$/.test(f))).toBe(true);
    const bad216 = byName.get("bf88e2ff-ac8b-4f29-8dbf-c2467325fe4e.jsonl");
    expect(names(bad216?.subagents ?? [])).toEqual(["agent-a57399f.jsonl"]);
    expect(bad216?.toolResults).toHaveLength(14);
    expect(bad216?.toolResults).toContain(
      path.join(CORPUS, "phantom-reads/session-examples/2.1.6-bad/bf88e2ff-ac8b-4f29-8dbf-c2467325fe4e/tool-results/toolu_0162qTLwBAPom8tHQpddvAev.txt"),
    );
    const good216 = byName.get("0357781f-d024-4cef-8496-56501c76afb3.jsonl");
    expect(names(good216?.subagents ?? [])).toEqual(["agent-aee03d2.jsonl"]);
    expect(good216?.toolResults).toEqual([]);
  });
});
