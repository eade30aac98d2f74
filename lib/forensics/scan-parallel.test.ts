/** The forensics scan mapped in line ranges on worker threads equals the one-pass scan. */
import fs from "node:fs/promises";
import path from "node:path";

import { afterEach, describe, expect, it, vi } from "vitest";

import { createCoreContext } from "@/lib/context";
import { freshProcess } from "@/lib/testing/fresh-process";
import { buildTestWorkspace, TEST_PROJECT_KEY } from "@/lib/testing/workspace-builder";
import { sessionAuditEvents } from "@/lib/ledger/session-audit";

const at = (second: number) => `2026-05-12T01:${String(Math.floor(second / 60)).padStart(2, "0")}:${String(second % 60).padStart(2, "0")}.${String(second % 1000).padStart(3, "0")}Z`;

/** A transcript of `rounds` tool rounds with a malformed line, API errors and a cut user text. */
function transcript(rounds: number): string {
  const lines: string[] = [JSON.stringify({ type: "user", timestamp: at(0), message: { role: "user", content: `start ${"long ".repeat(300)}` } })];
  for (let r = 1; r <= rounds; r++) {
    const s = r * 3;
    lines.push(JSON.stringify({ type: "assistant", timestamp: at(s), message: { role: "assistant", id: `m${r}`, content: [{ type: "tool_use", id: `t${r}`, name: r % 2 ? "Bash" : "Read", input: { command: r % 3 ? "npm test" : "cat a" } }], usage: { input_tokens: r, output_tokens: 2, cache_read_input_tokens: r % 7 === 0 ? 10 : 90_000 } } }));
    lines.push(JSON.stringify({ type: "user", timestamp: at(s + 1), message: { role: "user", content: [{ type: "tool_result", tool_use_id: `t${r}`, content: "x".repeat(r % 5 ? 10 : 900), is_error: r % 4 === 0 } ] }, toolUseResult: { stdout: "y" } }));
    if (r % 9 === 0) lines.push(`{"type":"progress","timestamp":"${at(s + 2)}","data":{"a":[1,2`);
    if (r % 11 === 0) lines.push(JSON.stringify({ type: "system", subtype: "api_error", content: `boom ${"e".repeat(700)}`, timestamp: at(s + 2) }));
    if (r % 13 === 0) lines.push(JSON.stringify({ type: "user", timestamp: at(s + 2), message: { role: "user", content: `next ${r}` } }));
  }
  return `${lines.join("\n")}\n`;
}

const codexLine = (o: unknown) => JSON.stringify(o);

/** A Codex rollout of `turns` turns after `first` (a session_meta envelope or a legacy header), with a malformed line. */
function rollout(first: string, turns: number): string {
  const lines = [first];
  for (let i = 0; i < turns; i++) {
    lines.push(codexLine({ timestamp: at(i), type: "response_item", payload: { type: "message", role: "user", content: [{ type: "input_text", text: `prompt ${i}` }] } }));
    lines.push(codexLine({ timestamp: at(i), type: "event_msg", payload: { type: "user_message", message: `prompt ${i}` } }));
    lines.push(codexLine({ timestamp: at(i), type: "response_item", payload: { type: "function_call", name: "shell", call_id: `c${i}`, arguments: "{\"command\":[\"ls\"]}" } }));
    lines.push(codexLine({ timestamp: at(i), type: "response_item", payload: { type: "function_call_output", call_id: `c${i}`, output: "o".repeat(i * 13) } }));
    lines.push(codexLine({ timestamp: at(i), type: "event_msg", payload: { type: "token_count", info: { total_token_usage: { input_tokens: 10 * i, cached_input_tokens: 8 * i, output_tokens: 5 * i }, last_token_usage: { input_tokens: 10, output_tokens: 5 } } } }));
    if (i % 9 === 4) lines.push('{"timestamp":"broken",');
  }
  return `${lines.join("\n")}\n`;
}
const ENVELOPE = codexLine({ timestamp: at(0), type: "session_meta", payload: { id: "019e0000-0000-7000-8000-000000000001", cwd: "/w", originator: "codex-tui" } });
const LEGACY = codexLine({ id: "981d779b-eff6-469e-bb55-b423fe135b79", timestamp: at(0), instructions: "" });

async function overview(workers: string, session: { content: string; source?: "codex" } = { content: transcript(400) }) {
  process.env.CASEFILE_WORKERS = workers;
  process.env.CASEFILE_WORKERS_MIN_BYTES = "0";
  freshProcess();
  // Lines mapped on this thread (a worker has modules of its own).
  const { LineMapper } = await import("@/lib/forensics/scan-map");
  const mappedHere = vi.spyOn(LineMapper.prototype, "mapRange");
  const { sessionOverview } = await import("@/lib/forensics/overview");
  const { reconstructSession } = await import("@/lib/forensics/reconstruct");
  const root = await buildTestWorkspace([{ ref: "S0001", ...session }]);
  const ctx = createCoreContext(root, { now: () => new Date("2026-05-13T00:00:00Z") });
  const ids = { project_key: TEST_PROJECT_KEY, session_ref: "S0001" };
  const result = { overview: await sessionOverview(ctx, ids, sessionAuditEvents), timeline: await reconstructSession(ctx, { ...ids, limit: 5000, offset: 0, max_bytes: 10_000_000, verbosity: "compact", include_prompts: false, include_tool_payloads: true, include_headlines: false }, sessionAuditEvents) };
  const stored = await fs.readdir(path.join(root, ".casefile", "forensics"));
  // The stored scan's arrays (its JSON header names the files' mtimes, which differ).
  const bytes = await fs.readFile(path.join(root, ".casefile", "forensics", stored[0]!));
  return { result, stored: bytes.subarray((4 + bytes.readUInt32LE(0) + 7) & ~7), mappedHere: mappedHere.mock.calls.length };
}

describe("the forensics scan mapped in line ranges (worker threads)", () => {
  afterEach(() => {
    delete process.env.CASEFILE_WORKERS;
    delete process.env.CASEFILE_WORKERS_MIN_BYTES;
  });

  it("gives the one-thread result exactly: overview, timeline and stored scan", async () => {
    const warn = vi.spyOn(console, "warn");
    const one = await overview("1");
    const three = await overview("3");
    // The range pool reports a fallback to one thread: the workers did run.
    expect(warn).not.toHaveBeenCalled();
    expect(one.result.overview.status).toBe("ok");
    expect(JSON.stringify(three.result)).toBe(JSON.stringify(one.result));
    expect(three.stored.equals(one.stored)).toBe(true);
    expect(JSON.stringify(one.result.overview)).toContain("truncated_line");
    expect(JSON.stringify(one.result.overview)).toContain("start long long");
  }, 60_000);

  it("gives it too when a server keeps every range off its main thread (CASEFILE_WORKERS_ONLY)", async () => {
    const one = await overview("1");
    process.env.CASEFILE_WORKERS_ONLY = "1";
    try {
      const two = await overview("2");
      expect(JSON.stringify(two.result)).toBe(JSON.stringify(one.result));
      expect(two.stored.equals(one.stored)).toBe(true);
    } finally {
      delete process.env.CASEFILE_WORKERS_ONLY;
    }
  }, 60_000);

  it.each([
    ["an envelope rollout", ENVELOPE],
    ["a rollout after a legacy header", LEGACY],
  ])("reads a big Codex file whole in one worker when a server keeps its main thread free (%s)", async (_name, first) => {
    const session = { content: rollout(first, 300), source: "codex" as const };
    const one = await overview("1", session);
    process.env.CASEFILE_WORKERS_ONLY = "1";
    try {
      const off = await overview("2", session);
      expect(one.mappedHere).toBeGreaterThan(0);
      expect(off.mappedHere).toBe(0);
      expect(one.result.overview.status).toBe("ok");
      expect(JSON.stringify(off.result)).toBe(JSON.stringify(one.result));
      expect(off.stored.equals(one.stored)).toBe(true);
    } finally {
      delete process.env.CASEFILE_WORKERS_ONLY;
    }
  }, 60_000);
});
