/** Usage of the agents behind the source contract (issue 38): counted from their readers' lines, by source. */
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { closeCatalog } from "@/lib/catalog/catalog";
import { prepareAgentsWorkspace } from "@/lib/testing/agents-workspace";
import { callTool } from "@/lib/tools/registry";
import { HAS_SHARED, makeTempDir, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { bundledPricing } from "@/lib/usage/pricing";
import { usageReport } from "@/lib/usage/report";
import type { GetUsageResult } from "@/lib/usage/schema";
import { usageOfFiles } from "@/lib/usage/session-usage";

async function file(name: string, lines: string[]): Promise<string> {
  const p = path.join(await makeTempDir("casefile-usage-agents-"), name);
  await fs.writeFile(p, lines.join("\n") + "\n");
  return p;
}

const gemini = (id: string, timestamp: string, tokens: Record<string, number>, model = "gemini-2.5-pro") => JSON.stringify({ id, timestamp, type: "gemini", content: "ok", model, tokens });

describe("usage of agent sessions", () => {
  it("counts Gemini: fresh input is input − cached, thoughts apart from output (in the total); a same-id rewrite counted once; no bundled price, so its cost is unknown", async () => {
    const main = await file("g.jsonl", [
      JSON.stringify({ sessionId: "s1", projectHash: "h", startTime: "2026-03-01T10:00:00.000Z", lastUpdated: "2026-03-01T10:05:00.000Z", kind: "main" }),
      JSON.stringify({ id: "u1", timestamp: "2026-03-01T10:00:00.000Z", type: "user", content: "hi" }),
      gemini("g1", "2026-03-01T10:00:05.000Z", { input: 1000, output: 50, cached: 400, thoughts: 20, tool: 0, total: 1070 }),
      // The CLI rewrites a message when its tokens arrive: the later line replaces the earlier.
      gemini("g1", "2026-03-01T10:00:06.000Z", { input: 1000, output: 60, cached: 400, thoughts: 20, tool: 0, total: 1080 }),
    ]);
    const usage = await usageOfFiles("gemini-cli", [{ kind: "main", path: main }], bundledPricing());
    expect(usage.totals).toMatchObject({ input_tokens: 600, output_tokens: 60, reasoning_tokens: 20, cache_read_tokens: 400, cache_creation_tokens: 0, total_tokens: 1080, requests: 1 });
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

/**
 * `ccusage gemini session --json --offline` (ccusage 20.0.24) with HOME at agents-home, run once
 * by hand: its figures per session. Its costs come from Gemini prices the bundled snapshot lacks
 * (there: unknown), and it drops a message without a model (here: counted under "unknown").
 */
const CCUSAGE_GEMINI = [
  { sessionId: "209f5a02-005a-47f8-a0f9-a959f14ca9e7", inputTokens: 131666, outputTokens: 4189, cacheCreationTokens: 0, cacheReadTokens: 1604238, totalTokens: 1760611 },
  { sessionId: "a4f28921-b13d-4265-9a7c-696be66dfd8c", inputTokens: 921506, outputTokens: 21854, cacheCreationTokens: 0, cacheReadTokens: 19168687, totalTokens: 20233050 },
];

describe.skipIf(!HAS_SHARED)(`Gemini usage against ccusage 20's gemini report${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  it("equals it field by field on the captured sessions (tokens; thoughts are in the total, not the output)", async () => {
    const { ctx } = await prepareAgentsWorkspace();
    const result = (await callTool(ctx, "get_usage", { group_by: "session", source: "gemini-cli" }, { door: "cli" })) as unknown as GetUsageResult;
    closeCatalog(ctx);
    const rows = result.rows;
    for (const cc of CCUSAGE_GEMINI) {
      const row = rows.find((r) => r.session_id === cc.sessionId)!;
      expect({ input: row.input_tokens, output: row.output_tokens, cacheCreate: row.cache_creation_tokens, cacheRead: row.cache_read_tokens, total: row.total_tokens }).toEqual({
        input: cc.inputTokens,
        output: cc.outputTokens,
        cacheCreate: cc.cacheCreationTokens,
        cacheRead: cc.cacheReadTokens,
        total: cc.totalTokens,
      });
    }
  });
});
