/** The forensics scan on a worker pool, subagents mapped beside the main transcript. */
import fs from "node:fs/promises";
import path from "node:path";

import { afterEach, describe, expect, it, vi } from "vitest";

import { createCoreContext } from "@/lib/context";
import { freshProcess } from "@/lib/testing/fresh-process";
import { buildTestWorkspace, TEST_PROJECT_KEY } from "@/lib/testing/workspace-builder";
import { sessionAuditEvents } from "@/lib/ledger/session-audit";

const at = (second: number) => `2026-05-12T01:${String(Math.floor(second / 60) % 60).padStart(2, "0")}:${String(second % 60).padStart(2, "0")}.000Z`;

/** Tool rounds whose timestamps jump back now and then (many runs for the timeline order), usage repeated per message. */
function transcript(rounds: number, tag: string, start: number): string {
  const lines: string[] = [JSON.stringify({ type: "user", timestamp: at(start), message: { role: "user", content: `${tag} start` } })];
  for (let r = 1; r <= rounds; r++) {
    const s = start + r * 3 - (r % 17 === 0 ? 40 : 0);
    const usage = { input_tokens: r, output_tokens: 2, cache_read_input_tokens: r % 7 === 0 ? 10 : 90_000 };
    lines.push(JSON.stringify({ type: "assistant", timestamp: at(s), message: { role: "assistant", id: `${tag}m${r}`, content: [{ type: "text", text: "on it" }], usage } }));
    lines.push(JSON.stringify({ type: "assistant", timestamp: at(s), message: { role: "assistant", id: `${tag}m${r}`, content: [{ type: "tool_use", id: `${tag}t${r}`, name: r % 2 ? "Bash" : "Read", input: { command: r % 3 ? "  npm test" : "cat a" } }], usage } }));
    lines.push(JSON.stringify({ type: "user", timestamp: at(s + 1), message: { role: "user", content: [{ type: "tool_result", tool_use_id: `${tag}t${r}`, content: "x", is_error: r % 4 === 0 }] } }));
    if (r % 9 === 0) lines.push(`{"type":"progress","timestamp":"${at(s + 2)}","data":{"a":[1,2`);
  }
  return `${lines.join("\n")}\n`;
}

async function run(workers: string, minBytes: string) {
  process.env.CASEFILE_WORKERS = workers;
  process.env.CASEFILE_WORKERS_MIN_BYTES = minBytes;
  freshProcess();
  const { sessionOverview } = await import("@/lib/forensics/overview");
  const { reconstructSession } = await import("@/lib/forensics/reconstruct");
  const root = await buildTestWorkspace([{ ref: "S0001", content: transcript(300, "main", 0) }]);
  const side = path.join(root, "projects", TEST_PROJECT_KEY, "sessions", "claude-code", "s0001");
  await fs.mkdir(path.join(side, "subagents"), { recursive: true });
  await fs.writeFile(path.join(side, "subagents", "agent-a.jsonl"), transcript(40, "a", 100));
  await fs.writeFile(path.join(side, "subagents", "agent-b.jsonl"), transcript(25, "b", 500));
  await fs.mkdir(path.join(side, "tool-results"), { recursive: true });
  await fs.writeFile(path.join(side, "tool-results", "maint4.txt"), "persisted output");
  const ctx = createCoreContext(root, { now: () => new Date("2026-05-13T00:00:00Z") });
  const ids = { project_key: TEST_PROJECT_KEY, session_ref: "S0001" };
  const result = { overview: await sessionOverview(ctx, ids, sessionAuditEvents), timeline: await reconstructSession(ctx, { ...ids, limit: 5000, offset: 0, max_bytes: 10_000_000, verbosity: "compact", include_prompts: false, include_tool_payloads: true, include_headlines: false }, sessionAuditEvents) };
  const dir = path.join(root, ".casefile", "forensics");
  const bytes = await fs.readFile(path.join(dir, (await fs.readdir(dir))[0]!));
  // The stored scan's arrays (its JSON header names the files' mtimes, which differ).
  return { result, stored: bytes.subarray((4 + bytes.readUInt32LE(0) + 7) & ~7) };
}

describe("the forensics scan on a worker pool, subagents mapped beside the main transcript", () => {
  afterEach(() => {
    delete process.env.CASEFILE_WORKERS;
    delete process.env.CASEFILE_WORKERS_MIN_BYTES;
  });

  it("gives the one-thread result exactly: overview, timeline and stored scan", async () => {
    const warn = vi.spyOn(console, "warn");
    const one = await run("1", "0");
    // Every transcript through the pool, then only the main one (~250 KB; the subagents are
    // mapped beside it and reduced after it).
    const pooled = await run("2", "0");
    const beside = await run("2", "100000");
    expect(warn).not.toHaveBeenCalled();
    expect(one.result.overview.status).toBe("ok");
    expect(JSON.stringify(pooled.result)).toBe(JSON.stringify(one.result));
    expect(JSON.stringify(beside.result)).toBe(JSON.stringify(one.result));
    expect(pooled.stored.equals(one.stored)).toBe(true);
    expect(beside.stored.equals(one.stored)).toBe(true);
    const text = JSON.stringify(one.result.overview);
    expect(text).toContain("subagent");
    expect(text).toContain("truncated_line");
  }, 60_000);
});
