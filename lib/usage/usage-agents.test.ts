/** Usage of the agents behind the source contract (issue 38): counted from their readers' lines, by source. */
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { makeTempDir } from "@/lib/testing/shared";
import { bundledPricing } from "@/lib/usage/pricing";
import { usageReport } from "@/lib/usage/report";
import { usageOfFiles } from "@/lib/usage/session-usage";

async function file(name: string, lines: string[]): Promise<string> {
  const p = path.join(await makeTempDir("casefile-usage-agents-"), name);
  await fs.writeFile(p, lines.join("\n") + "\n");
  return p;
}

const gemini = (id: string, timestamp: string, tokens: Record<string, number>, model = "gemini-2.5-pro") => JSON.stringify({ id, timestamp, type: "gemini", content: "ok", model, tokens });

describe("usage of agent sessions", () => {
  it("counts Gemini: fresh input is input − cached, thoughts billed as output; a same-id rewrite counted once; no bundled price, so its cost is unknown", async () => {
    const main = await file("g.jsonl", [
      JSON.stringify({ sessionId: "s1", projectHash: "h", startTime: "2026-03-01T10:00:00.000Z", lastUpdated: "2026-03-01T10:05:00.000Z", kind: "main" }),
      JSON.stringify({ id: "u1", timestamp: "2026-03-01T10:00:00.000Z", type: "user", content: "hi" }),
      gemini("g1", "2026-03-01T10:00:05.000Z", { input: 1000, output: 50, cached: 400, thoughts: 20, tool: 0, total: 1070 }),
      // The CLI rewrites a message when its tokens arrive: the later line replaces the earlier.
      gemini("g1", "2026-03-01T10:00:06.000Z", { input: 1000, output: 60, cached: 400, thoughts: 20, tool: 0, total: 1080 }),
    ]);
    const usage = await usageOfFiles("gemini-cli", [{ kind: "main", path: main }], bundledPricing());
    expect(usage.totals).toMatchObject({ input_tokens: 600, output_tokens: 80, cache_read_tokens: 400, cache_creation_tokens: 0, requests: 1 });
    // The bundled snapshot (ccusage's) prices no Gemini model: said, not guessed.
    expect(usage.totals.unpriced_models).toEqual(["gemini-2.5-pro"]);
    expect(Array.from(usage.lines.line)).toEqual([4]);
    expect([usage.firstMs, usage.lastMs]).toEqual([Date.parse("2026-03-01T10:00:00.000Z"), Date.parse("2026-03-01T10:00:06.000Z")]);
  });

  it("takes a cost the agent recorded (Aider's Tokens line) instead of the price table, and groups by source", async () => {
    const main = await file("r.md", ["# aider chat started at 2026-06-09 14:01:00", "", "#### add a test", "", "Added it.", "", "> Tokens: 2.5k sent, 300 received. Cost: $0.02 message, $0.02 session."]);
    const aider = await usageOfFiles("aider", [{ kind: "main", path: main }], bundledPricing());
    expect(aider.totals).toMatchObject({ input_tokens: 2500, output_tokens: 300, requests: 1, cost_usd: 0.02 });
    const claudeLike = await usageOfFiles("gemini-cli", [{ kind: "main", path: await file("g.jsonl", [gemini("g", "2026-06-09T12:00:00.000Z", { input: 10, output: 5, cached: 0, thoughts: 0, tool: 0, total: 15 })]) }], bundledPricing());
    const report = usageReport(
      [
        { project_key: "p", session_ref: "S0001", session_id: "a", source: "aider", usage: aider },
        { project_key: "p", session_ref: "S0002", session_id: "g", source: "gemini-cli", usage: claudeLike },
      ],
      { group_by: "source" },
    );
    expect(report.rows.map((r) => [r.key, r.total_tokens])).toEqual([["aider", 2800], ["gemini-cli", 15]]);
    expect(usageReport([{ project_key: "p", session_ref: "S0001", session_id: "a", source: "aider", usage: aider }], { group_by: "day", source: "gemini-cli" }).rows).toEqual([]);
  });
});
