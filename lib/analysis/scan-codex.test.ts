/** Tests of the Codex token scan (scanCodexSession). */
import { writeFileSync } from "node:fs";
import path from "node:path";

import { afterEach, describe, expect, it, vi } from "vitest";

import * as recordWalk from "@/lib/jsonl/record-walk";
import { scanCodexSession } from "@/lib/analysis/scan-codex";
import { makeTempDir } from "@/lib/testing/shared";

const line = (o: unknown) => JSON.stringify(o);
const ts = (s: number) => new Date(Date.UTC(2026, 4, 11, 8, 0, s)).toISOString();

/** A rollout whose cached context falls twice (two resets at the default threshold), with a malformed token_count line. */
function rollout(): string {
  const lines = [line({ timestamp: ts(0), type: "session_meta", payload: { id: "019e0000-0000-7000-8000-000000000001", cwd: "/w", originator: "codex-tui" } })];
  for (let i = 1; i <= 60; i++) {
    const cached = i % 25 === 0 ? 1_000 : 50_000 + i * 1_000;
    lines.push(line({ timestamp: ts(i), type: "event_msg", payload: { type: "token_count", info: { total_token_usage: { input_tokens: i * 100 }, last_token_usage: { input_tokens: cached + 500, cached_input_tokens: cached, output_tokens: 20 } } } }));
    lines.push(line({ timestamp: ts(i), type: "response_item", payload: { type: "function_call_output", call_id: `c${i}`, output: "x".repeat(i * 7) } }));
    if (i === 30) lines.push('{"type":"event_msg","payload":{"type":"token_count",');
  }
  return `${lines.join("\n")}\n`;
}

describe("scanCodexSession", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it("scans a big rollout in a worker when the process keeps its main thread free, with the same result", async () => {
    const file = path.join(await makeTempDir("scan-codex-"), "rollout.jsonl");
    writeFileSync(file, rollout());
    const here = await scanCodexSession(file, 10_000);
    expect(here.resets.length).toBe(2);
    expect(here.unparsable).toBe(1);
    vi.stubEnv("CASEFILE_WORKERS_ONLY", "1");
    vi.stubEnv("CASEFILE_WORKERS_MIN_BYTES", "0");
    const walked = vi.spyOn(recordWalk, "walkRecords");
    const off = await scanCodexSession(file, 10_000);
    expect(walked).not.toHaveBeenCalled();
    expect(off).toEqual(here);
  }, 60_000);
});
