/** The demo's deterministic Claude Code transcripts, for `npm start` on a machine without sessions. */
import fs from "node:fs/promises";
import path from "node:path";

type Rec = Record<string, unknown>;

const VERSION = "2.1.6";

/**
 * Writes a small, deterministic set of Claude Code transcripts (era-2 layout, seed 003) to
 * `dir`, for `npm start` on a machine without `~/.claude/projects`: two projects, three
 * sessions, tool calls and results, a thinking block, a subagent transcript and a persisted
 * tool result. Existing demo files are overwritten. Returns the written file paths.
 */
export async function generateDemoSources(dir: string): Promise<string[]> {
  const sessions = [
    demoSession("3f1c2a9e-1d2b-4c5d-8e9f-000000000001", "/home/demo/acme-api", Date.UTC(2026, 10, 18, 9, 0), [
      "Add pagination to the /orders endpoint and cover it with tests.",
      "The tests fail on an empty page — fix the off-by-one.",
      "Looks good. Update the API docs too.",
    ], 40),
    demoSession("3f1c2a9e-1d2b-4c5d-8e9f-000000000002", "/home/demo/acme-api", Date.UTC(2026, 10, 19, 14, 30), [
      "Why is the nightly build slow? Profile it.",
      "Go with the caching option.",
    ], 12),
    demoSession("7b0d4e21-aaaa-4bbb-8ccc-000000000003", "/home/demo/docs-site", Date.UTC(2026, 10, 20, 8, 15), [
      "Rewrite the getting-started page for the new CLI.",
    ], 6),
  ];
  const written: string[] = [];
  for (const s of sessions) {
    const projectDir = path.join(dir, s.cwd.replaceAll("/", "-"));
    const file = path.join(projectDir, `${s.id}.jsonl`);
    await fs.mkdir(projectDir, { recursive: true });
    await fs.writeFile(file, s.records.map((r) => JSON.stringify(r)).join("\n") + "\n");
    written.push(file);
    if (s.id.endsWith("1")) {
      const agentDir = path.join(projectDir, s.id, "subagents");
      await fs.mkdir(agentDir, { recursive: true });
      const agentFile = path.join(agentDir, "agent-a1b2c3d.jsonl");
      await fs.writeFile(agentFile, subagent(s.id, s.cwd, Date.UTC(2026, 10, 18, 9, 5)).map((r) => JSON.stringify(r)).join("\n") + "\n");
      const toolDir = path.join(projectDir, s.id, "tool-results");
      await fs.mkdir(toolDir, { recursive: true });
      await fs.writeFile(path.join(toolDir, "toolu_demo0001.txt"), "PASS  orders.test.ts (42 tests)\n".repeat(20));
      written.push(agentFile);
    }
  }
  return written;
}

function demoSession(id: string, cwd: string, startMs: number, prompts: string[], stepsPerTurn: number) {
  let t = startMs;
  let n = 0;
  const tick = (ms = 1500) => new Date((t += ms)).toISOString();
  const base = (type: string): Rec => ({ parentUuid: null, isSidechain: false, userType: "external", cwd, sessionId: id, version: VERSION, gitBranch: "main", type, uuid: `${id.slice(0, 8)}-${String((n += 1)).padStart(4, "0")}` });
  const records: Rec[] = [{ type: "file-history-snapshot", messageId: `${id}-snap`, snapshot: { trackedFileBackups: {}, timestamp: tick(0) }, isSnapshotUpdate: false }];
  prompts.forEach((prompt, turn) => {
    records.push({ ...base("user"), timestamp: tick(60_000), message: { role: "user", content: prompt } });
    records.push({ ...base("assistant"), timestamp: tick(), message: assistant(`msg_${turn}_think`, [{ type: "thinking", thinking: "Plan the change before editing.", signature: "sig" }]) });
    for (let step = 0; step < stepsPerTurn; step += 1) {
      const toolId = `toolu_${turn}_${step}`;
      const file = `src/orders/${["handler", "query", "schema", "pager"][step % 4]}.ts`;
      const cmd = step % 3 === 0;
      records.push({ ...base("assistant"), timestamp: tick(), message: assistant(`msg_${turn}_${step}`, [
        { type: "text", text: cmd ? `Running the test suite (step ${step + 1}).` : `Reading ${file}.` },
        cmd ? { type: "tool_use", id: toolId, name: "Bash", input: { command: "npm test -- orders", description: "Run order tests" } } : { type: "tool_use", id: toolId, name: "Read", input: { file_path: `${cwd}/${file}` } },
      ]) });
      const output = cmd ? `> npm test -- orders\n${"✓ orders paginate\n".repeat(step + 3)}Tests: ${step + 3} passed` : `export function page(items, limit, offset) {\n${"  // …\n".repeat(step + 2)}}`;
      records.push({
        ...base("user"),
        timestamp: tick(),
        sourceToolAssistantUUID: `${id.slice(0, 8)}-tool`,
        message: { role: "user", content: [{ type: "tool_result", tool_use_id: toolId, content: output, is_error: false }] },
        toolUseResult: cmd ? { stdout: output, stderr: "", interrupted: false, command: "npm test -- orders" } : { type: "text", file: { filePath: `${cwd}/${file}`, content: output } },
      });
    }
    records.push({ ...base("assistant"), timestamp: tick(), message: assistant(`msg_${turn}_done`, [{ type: "text", text: `Done with: ${prompt}` }]) });
    records.push({ ...base("system"), subtype: "turn_duration", durationMs: 90_000, timestamp: tick(10) });
  });
  return { id, cwd, records };
}

function assistant(id: string, content: Rec[]): Rec {
  return { model: "claude-demo", id, type: "message", role: "assistant", content, stop_reason: null, usage: { input_tokens: 120, output_tokens: 240 } };
}

function subagent(parentId: string, cwd: string, startMs: number): Rec[] {
  let t = startMs;
  const at = () => new Date((t += 2000)).toISOString();
  const base = { isSidechain: true, userType: "external", cwd, sessionId: parentId, version: VERSION, agentId: "a1b2c3d" };
  return [
    { ...base, type: "user", uuid: "sub-1", timestamp: at(), message: { role: "user", content: "Find every caller of page() in src/." } },
    { ...base, type: "assistant", uuid: "sub-2", timestamp: at(), message: assistant("sub_msg_1", [{ type: "tool_use", id: "toolu_sub_1", name: "Grep", input: { pattern: "page\\(", path: "src" } }]) },
    { ...base, type: "user", uuid: "sub-3", timestamp: at(), message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_sub_1", content: "src/orders/handler.ts:12\nsrc/orders/query.ts:40" }] } },
    { ...base, type: "assistant", uuid: "sub-4", timestamp: at(), message: assistant("sub_msg_2", [{ type: "text", text: "Two callers: handler.ts:12 and query.ts:40." }]) },
  ];
}
