/** Issue 37: every operator and filter of the search query language, and its malformed queries, the same through CLI, HTTP and MCP. */
import { beforeAll, describe, expect, it } from "vitest";

import { fillFullText } from "@/lib/catalog/full-text-index";
import { refreshCatalog } from "@/lib/catalog/refresh";
import { createCoreContext } from "@/lib/context";
import { buildTestWorkspace, TEST_PROJECT_KEY } from "@/lib/testing/workspace-builder";
import { type DoorAnswers, openDoors } from "@/server/__fixtures__/doors";

const line = (value: object) => JSON.stringify(value);
const at = (day: string) => `2026-03-${day}T10:00:00.000Z`;
/** A Claude Code session: a request, thinking and a failed Bash call, a Read of src/auth.ts, an answer. */
const CLAUDE = [
  line({ type: "user", timestamp: at("01"), message: { role: "user", content: "please check the deprecated API" } }),
  line({ type: "assistant", timestamp: at("01"), message: { role: "assistant", content: [{ type: "thinking", thinking: "I should grep; methodology first" }, { type: "tool_use", id: "t1", name: "Bash", input: { command: "grep -rn deprecated src/" } }] } }),
  line({ type: "user", timestamp: at("01"), message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", is_error: true, content: "grep: src/: No such file or directory" }] } }),
  line({ type: "assistant", timestamp: at("01"), message: { role: "assistant", content: [{ type: "tool_use", id: "t2", name: "Read", input: { file_path: "src/auth.ts" } }] } }),
  line({ type: "user", timestamp: at("01"), message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t2", content: `${"// header\n".repeat(300)}export function login() { /* deprecated */ }` }] } }),
  line({ type: "assistant", timestamp: at("02"), message: { role: "assistant", content: [{ type: "text", text: "The login function is deprecated; use signIn." }] } }),
].join("\n");
/** A Codex session: a request, a failing `npm test`, an answer. */
const CODEX = [
  line({ timestamp: "2026-02-01T09:00:00.000Z", type: "session_meta", payload: { id: "S0002-id", timestamp: "2026-02-01T09:00:00.000Z", cwd: "/work/app" } }),
  line({ timestamp: "2026-02-01T09:00:01.000Z", type: "response_item", payload: { type: "message", role: "user", content: [{ type: "input_text", text: "run the tests" }] } }),
  line({ timestamp: "2026-02-01T09:00:02.000Z", type: "response_item", payload: { type: "function_call", name: "shell", arguments: JSON.stringify({ command: ["npm", "test"] }), call_id: "c1" } }),
  line({ timestamp: "2026-02-01T09:00:03.000Z", type: "response_item", payload: { type: "function_call_output", call_id: "c1", output: JSON.stringify({ output: "1 failing", metadata: { exit_code: 1 } }) } }),
  line({ timestamp: "2026-02-01T09:00:04.000Z", type: "response_item", payload: { type: "message", role: "assistant", content: [{ type: "output_text", text: "One test fails: a deprecated helper" }] } }),
].join("\n");

let call: (tool: string, input: object) => Promise<DoorAnswers>;

beforeAll(async () => {
  const root = await buildTestWorkspace([
    { ref: "S0001", content: `${CLAUDE}\n`, turns: [{ turn_ref: "T0001", turn_start_line: 1, turn_end_line: 6 }] },
    { ref: "S0002", source: "codex", content: `${CODEX}\n`, turns: [{ turn_ref: "T0001", turn_start_line: 2, turn_end_line: 5 }] },
  ]);
  // The index filled first, as the dashboard's watcher does: every door then answers from it.
  await refreshCatalog(createCoreContext(root));
  await fillFullText(createCoreContext(root));
  ({ call } = await openDoors(root));
});

/** Every door's answer is the same JSON; the CLI's. */
function same(answers: DoorAnswers): string {
  expect(answers.http.text).toBe(answers.cli.text);
  expect(answers.mcp.text).toBe(answers.cli.text);
  return answers.cli.text;
}

describe("the search query language through every door (issue 37)", { timeout: 300_000 }, () => {
  it.each([
    ["a word: anywhere on the line, as grep -i finds it", "deprecated", ["S0001:1", "S0001:2", "S0001:5", "S0001:6", "S0002:5"]],
    ["a substring of a word", "PRECATED", ["S0001:1", "S0001:2", "S0001:5", "S0001:6", "S0002:5"]],
    ["words: all on the line", "deprecated login", ["S0001:5", "S0001:6"]],
    ["an exact phrase", '"login function"', ["S0001:6"]],
    ["a prefix: at a word start only", "ecated* OR deprec*", ["S0001:1", "S0001:2", "S0001:5", "S0001:6", "S0002:5"]],
    ["a prefix that starts no word", "ecated*", []],
    ["OR", "methodology OR signIn", ["S0001:2", "S0001:6"]],
    ["-word excludes", "deprecated -login", ["S0001:1", "S0001:2", "S0002:5"]],
    ["agent:", "deprecated agent:codex", ["S0002:5"]],
    ["role:user", "deprecated role:user", ["S0001:1"]],
    ["role:tool", "role:tool", ["S0001:3", "S0001:5", "S0002:4"]],
    ["tool: the call and its answer", "tool:Bash", ["S0001:2", "S0001:3"]],
    ["tool: a Codex tool", "tool:shell", ["S0002:3", "S0002:4"]],
    ["file: the call and its answer", "file:auth.ts", ["S0001:4", "S0001:5"]],
    ["is:error: a failed tool result and a failed command", "is:error", ["S0001:3", "S0002:4"]],
    ["after: (inclusive)", "deprecated after:2026-03-02", ["S0001:6"]],
    ["before: (exclusive)", "deprecated before:2026-03-02", ["S0001:1", "S0001:2", "S0001:5", "S0002:5"]],
    ["project: and session:", `deprecated project:${TEST_PROJECT_KEY} session:S0002`, ["S0002:5"]],
    ["a word deep inside a long tool result", '"login() { /* deprecated"', ["S0001:5"]],
  ])("%s: %s", async (_label, query, expected) => {
    const text = same(await call("search_sessions", { query, limit: 50 }));
    const result = JSON.parse(text) as { status: string; total: number; hits: { session_ref: string; line_number: number; snippet: string }[] };
    expect(result.status).toBe("ok");
    expect(result.hits.map((h) => `${h.session_ref}:${h.line_number}`).sort()).toEqual(expected);
    expect(result.total).toBe(expected.length);
  });

  it.each([
    ["an unclosed quote", '"login function', /^at character 1: /],
    ["OR at the end", "deprecated OR", /^at character 12: /],
    ["a lone -", "deprecated -", /^at character 12: /],
    ["an unknown filter", "deprecated nope:x", /^at character 12: /],
    ["a day that does not exist", "deprecated after:2026-02-30", /^at character 18: /],
    ["an agent not read", "deprecated agent:nobody", /^at character 18: /],
    ["nothing to narrow by", "ab", /^at character 1: a search needs a word of at least 3 characters or a filter/],
    ["a NUL character", "abc\u0000def", /^at character 4: /],
  ])("a malformed query gets the same error naming the position: %s", async (_label, query, message) => {
    const answers = await call("search_sessions", { query });
    const text = same(answers);
    expect([answers.cli.code, answers.http.status, answers.mcp.isError]).toEqual([2, 400, true]);
    const result = JSON.parse(text) as { status: string; errors: { field: string; message: string; hint: string }[] };
    expect(result.status).toBe("invalid");
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]!.field).toBe("query");
    expect(result.errors[0]!.message).toMatch(message);
    expect(result.errors[0]!.hint.length).toBeGreaterThan(10);
  });

  it("finds in one session: session_ref with its project_key, the same lines as the session: filter", async () => {
    const scoped = JSON.parse(same(await call("search_sessions", { query: "deprecated", project_key: TEST_PROJECT_KEY, session_ref: "S0001", limit: 50 }))) as { hits: { line_number: number }[] };
    const filtered = JSON.parse(same(await call("search_sessions", { query: `deprecated session:S0001 project:${TEST_PROJECT_KEY}`, limit: 50 }))) as { hits: { line_number: number }[] };
    expect(scoped.hits.map((h) => h.line_number).sort()).toEqual([1, 2, 5, 6]);
    expect(filtered.hits).toEqual(scoped.hits);
    const unknown = await call("search_sessions", { query: "deprecated", project_key: TEST_PROJECT_KEY, session_ref: "S0404" });
    expect(JSON.parse(same(unknown))).toEqual({ status: "invalid", errors: [{ field: "session_ref", message: `unknown session_ref 'S0404' for project '${TEST_PROJECT_KEY}'`, hint: expect.any(String) }] });
    // In line order, one transcript: the check stops once the page is full and counts what it left.
    const byLine = JSON.parse(same(await call("search_sessions", { query: "deprecated", project_key: TEST_PROJECT_KEY, session_ref: "S0001", transcript: "main", order: "line", limit: 2 }))) as { total: number; coverage: { lines_unchecked: number }; hits: { line_number: number }[] };
    expect(byLine.hits.map((h) => h.line_number)).toEqual([1, 2]);
    expect(byLine.coverage.lines_unchecked).toBe(2);
    const next = JSON.parse(same(await call("search_sessions", { query: "deprecated", project_key: TEST_PROJECT_KEY, session_ref: "S0001", transcript: "main", order: "line", limit: 2, offset: 2 }))) as { hits: { line_number: number }[] };
    expect(next.hits.map((h) => h.line_number)).toEqual([5, 6]);
    const noSubagent = JSON.parse(same(await call("search_sessions", { query: "deprecated", project_key: TEST_PROJECT_KEY, session_ref: "S0001", transcript: "agent-none", order: "line" }))) as { total: number };
    expect(noSubagent.total).toBe(0);
    expect(JSON.parse(same(await call("search_sessions", { query: "deprecated", transcript: "main" })))).toMatchObject({ status: "invalid", errors: [{ field: "transcript" }] });
    const alone = await call("search_sessions", { query: "deprecated", session_ref: "S0001" });
    expect(JSON.parse(same(alone))).toMatchObject({ status: "invalid", errors: [{ field: "project_key" }] });
  });
});
