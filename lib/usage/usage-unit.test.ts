/** Tests of Claude Code usage, prices and usage kept across processes. */
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { makeTempDir } from "@/lib/testing/shared";
import { bundledPricing, loadPricing, priceOf, requestCost } from "@/lib/usage/pricing";
import { usageReport, weekOf, type SessionUsageEntry } from "@/lib/usage/report";
import { clearUsageCache, readUsage, usageFromJson, usageOfFiles, usageToJson, type SessionUsage, type UsageStore } from "@/lib/usage/session-usage";

const assistant = (ts: string, id: string, req: string | null, model: string, usage: Record<string, unknown>) =>
  JSON.stringify({ type: "assistant", timestamp: ts, ...(req ? { requestId: req } : {}), message: { id, model, role: "assistant", content: [{ type: "text", text: "x" }], usage } });

async function file(lines: string[]): Promise<string> {
  const p = path.join(await makeTempDir("casefile-usage-"), "s.jsonl");
  await fs.writeFile(p, lines.join("\n") + "\n");
  return p;
}

describe("usage of Claude Code records", () => {
  it("counts a streamed message once with its last line's usage, keys by id + requestId, and prices 1h cache writes at 2x input", async () => {
    const u = { input_tokens: 10, cache_creation_input_tokens: 1000, cache_read_input_tokens: 0, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 1000 } };
    const main = await file([
      JSON.stringify({ type: "user", timestamp: "2026-01-01T23:50:00Z", message: { role: "user", content: "hi" } }),
      assistant("2026-01-01T23:55:00Z", "m1", "r1", "claude-opus-4-5-20251101", { ...u, output_tokens: 1 }),
      assistant("2026-01-01T23:55:01Z", "m1", "r1", "claude-opus-4-5-20251101", { ...u, output_tokens: 500 }),
      // Same message id, another request: a second request.
      assistant("2026-01-02T00:10:00Z", "m1", "r2", "claude-opus-4-5-20251101", { input_tokens: 5, output_tokens: 7 }),
      assistant("2026-01-02T00:11:00Z", "m9", null, "<synthetic>", { input_tokens: 0, output_tokens: 0 }),
    ]);
    const sub = await file([assistant("2026-01-02T00:12:00Z", "s1", "rs", "mystery-model-1", { input_tokens: 3, output_tokens: 4 })]);
    const usage = await usageOfFiles("claude-code", [{ kind: "main", path: main }, { kind: "subagent", path: sub }], bundledPricing());
    expect(usage.main).toMatchObject({ input_tokens: 15, output_tokens: 507, cache_creation_tokens: 1000, cache_creation_1h_tokens: 1000, requests: 2, unpriced_models: [] });
    // opus 4.5: input $5/M, output $25/M, 1h write 2 x $5/M.
    expect(usage.main.cost_usd).toBeCloseTo((15 * 5 + 507 * 25 + 1000 * 10) / 1e6, 12);
    expect(usage.subagents).toMatchObject({ output_tokens: 4, cost_usd: null, unpriced_models: ["mystery-model-1"] });
    expect(usage.totals.unpriced_models).toEqual(["mystery-model-1"]);
    expect(usage.totals.cost_usd).toBeCloseTo(usage.main.cost_usd!, 12);
    expect(usage.lines.line).toEqual(new Uint32Array([3, 4]));
    expect(usage.firstMs).toBe(Date.parse("2026-01-01T23:50:00Z"));

    const entry: SessionUsageEntry = { project_key: "p", session_ref: "S0001", session_id: "abc", source: "claude-code", usage };
    const utc = usageReport([entry], { group_by: "day" });
    expect(utc.rows.map((r) => [r.key, r.output_tokens])).toEqual([["2026-01-01", 500], ["2026-01-02", 11]]);
    // In Vilnius (UTC+2) all of it is on January 2nd.
    const vilnius = usageReport([entry], { group_by: "day", timezone: "Europe/Vilnius" });
    expect(vilnius.rows.map((r) => [r.key, r.output_tokens])).toEqual([["2026-01-02", 511]]);
    expect(usageReport([entry], { group_by: "day", since: "2026-01-02" }).totals.output_tokens).toBe(11);
    const sessions = usageReport([entry], { group_by: "session" });
    expect(sessions.rows).toMatchObject([{ key: "p/S0001", session_id: "abc", output_tokens: 511, total_tokens: usage.totals.total_tokens }]);
    expect(usageReport([entry], { group_by: "model" }).rows.map((r) => r.key)).toEqual(["claude-opus-4-5-20251101", "mystery-model-1"]);
  });

  it("reads only top-level assistant usage, as JSON.parse would: nested usage, escaped keys, duplicate keys and broken lines", async () => {
    const usage = { input_tokens: 1, output_tokens: 2, cache_read_input_tokens: 3, cache_creation_input_tokens: 4 };
    const main = await file([
      // A user record quoting an assistant usage in its text and in a nested object: not counted.
      JSON.stringify({ type: "user", timestamp: "2026-01-01T00:00:00Z", message: { role: "user", content: 'the "assistant" said "usage"' }, toolUseResult: { type: "assistant", usage } }),
      // A progress record carrying a subagent's assistant message: not a top-level assistant record.
      JSON.stringify({ type: "progress", timestamp: "2026-01-01T00:00:01Z", data: { message: { type: "assistant", message: { id: "p1", model: "claude-opus-4-5-20251101", usage } } } }),
      // Escaped key letters (`"\u0074ype"` is `"type"`): the skim leaves it to JSON.parse, which counts it.
      assistant("2026-01-01T00:00:02Z", "m1", "r1", "claude-opus-4-5-20251101", usage).replace('"type":"assistant"', '"\\u0074ype":"assistant"'),
      // A duplicate key: the last one wins, as in JSON.parse (counted with output 9).
      assistant("2026-01-01T00:00:03Z", "m2", "r2", "claude-opus-4-5-20251101", usage).replace('"output_tokens":2', '"output_tokens":2,"output_tokens":9'),
      // Broken JSON with both tokens: skipped.
      assistant("2026-01-01T00:00:04Z", "m3", "r3", "claude-opus-4-5-20251101", usage).slice(0, -1),
      // Long content (the skim never decodes it) and a unicode escape in the model name.
      JSON.stringify({ type: "assistant", timestamp: "2026-01-01T00:00:05Z", requestId: "r4", message: { id: "m4", model: "claude-opus-4-5-20251101", content: [{ type: "text", text: "é".repeat(5000) }], usage } }).replace("20251101", "2025110\\u0031"),
    ]);
    const u = await usageOfFiles("claude-code", [{ kind: "main", path: main }], bundledPricing());
    expect(Array.from(u.lines.line)).toEqual([3, 4, 6]);
    expect(Array.from(u.lines.output)).toEqual([2, 9, 2]);
    expect(u.main).toMatchObject({ requests: 3, input_tokens: 3, cache_read_tokens: 9, cache_creation_tokens: 12 });
    expect([...new Set(u.buckets.map((b) => b.model))]).toEqual(["claude-opus-4-5-20251101"]);
    expect([u.firstMs, u.lastMs]).toEqual([Date.parse("2026-01-01T00:00:00Z"), Date.parse("2026-01-01T00:00:05Z")]);
  });

  it("counts Codex token_count increases under the turn's model, input without its cached part", async () => {
    const tc = (ts: string, input: number, cached: number, output: number) => JSON.stringify({ timestamp: ts, type: "event_msg", payload: { type: "token_count", info: { total_token_usage: { input_tokens: input, cached_input_tokens: cached, output_tokens: output, total_tokens: input + output }, last_token_usage: null } } });
    const p = await file([
      JSON.stringify({ timestamp: "2026-01-02T00:00:00Z", type: "turn_context", payload: { model: "gpt-5.1-codex" } }),
      tc("2026-01-02T00:00:01Z", 100, 40, 10),
      tc("2026-01-02T00:00:02Z", 100, 40, 10), // repeated: no increase
      tc("2026-01-02T00:00:03Z", 300, 240, 30),
    ]);
    const usage = await usageOfFiles("codex", [{ kind: "main", path: p }], bundledPricing());
    expect(usage.totals).toMatchObject({ input_tokens: 60, cache_read_tokens: 240, output_tokens: 30, total_tokens: 330, requests: 2 });
    expect(usage.totals.cost_usd).toBeCloseTo(60 * 1.25e-6 + 240 * 1.25e-7 + 30 * 1e-5, 12);
  });
});

describe("prices", () => {
  it("resolves dated and dashed model names, tiers above 200k tokens, and never prices an unknown model at 0", () => {
    const table = bundledPricing();
    expect(priceOf(table, "gpt-5-1-codex-2025-11-13")).toBe(table.models.get("gpt-5.1-codex"));
    expect(priceOf(table, "no-such-model")).toBeNull();
    const sonnet = priceOf(table, "claude-sonnet-4-5-20250929")!;
    const cost = requestCost(sonnet, { input: 300_000, output: 0, cacheWrite: 0, cacheWrite1h: 0, cacheRead: 0 }, table.tierThreshold);
    expect(cost).toBeCloseTo(200_000 * 3e-6 + 100_000 * 6e-6, 9);
  });

  it("lays the workspace override file over the snapshot and rejects a bad one with its field", async () => {
    const dir = await makeTempDir("casefile-prices-");
    const f = path.join(dir, "pricing.json");
    await fs.writeFile(f, JSON.stringify({ models: { "house-model": { input_per_mtok: 1, output_per_mtok: 2 }, "gpt-5.5": { output_per_mtok: 40 } } }));
    const table = await loadPricing(f);
    expect(priceOf(table, "house-model")).toMatchObject({ input: 1e-6, output: 2e-6, cacheRead: null });
    expect(priceOf(table, "gpt-5.5")).toMatchObject({ input: 5e-6, output: 40e-6 });
    await fs.writeFile(f, JSON.stringify({ models: { "house-model": { input_per_mtok: -1 } } }));
    await expect(loadPricing(f)).rejects.toMatchObject({ code: "parse_error", message: expect.stringContaining("models.house-model.input_per_mtok") });
  });

  it("starts weeks on Monday", () => {
    expect(weekOf("2026-11-28")).toBe("2026-11-23");
    expect(weekOf("2026-11-23")).toBe("2026-11-23");
  });
});

describe("usage kept across processes", () => {
  it("shares one pass between concurrent readers, saves it to the store, and a new process loads it instead of reading again", async () => {
    const main = await file([assistant("2026-01-01T10:00:00Z", "m1", "r1", "claude-opus-4-5-20251101", { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 7 })]);
    const saved = new Map<string, string>();
    let loads = 0;
    const store: UsageStore = {
      load: async (stamp) => {
        loads++;
        const text = saved.get(stamp);
        return text === undefined ? null : usageFromJson(JSON.parse(text));
      },
      save: async (stamp, usage) => void saved.set(stamp, JSON.stringify(usageToJson(usage))),
    };
    const none = path.join(path.dirname(main), "no-override.json");
    clearUsageCache();
    const [a, b] = await Promise.all([readUsage("k", "claude-code", [{ kind: "main", path: main }], none, store), readUsage("k", "claude-code", [{ kind: "main", path: main }], none, store)]);
    expect(a).toBe(b);
    expect(loads).toBe(1);
    expect(saved.size).toBe(1);

    // A new process (empty memory) gets the stored usage: the transcript is not read again (the
    // stored copy is marked, so only a load can answer the mark).
    const [stamp, text] = [...saved][0]!;
    expect(usageFromJson(JSON.parse(text))).toEqual(a);
    saved.set(stamp, JSON.stringify({ ...JSON.parse(text), source: "from-store" }));
    clearUsageCache();
    const back = await readUsage("k", "claude-code", [{ kind: "main", path: main }], none, store);
    expect(back.source).toBe("from-store");
    expect(back.lines.line).toEqual(new Uint32Array([1]));

    // The transcript grew: the stored usage is for another version and is counted again.
    await fs.appendFile(main, `${assistant("2026-01-01T10:01:00Z", "m2", "r2", "claude-opus-4-5-20251101", { input_tokens: 1, output_tokens: 2 })}\n`);
    clearUsageCache();
    const grown = await readUsage("k", "claude-code", [{ kind: "main", path: main }], none, store);
    expect(grown.lines.line).toEqual(new Uint32Array([1, 2]));
    expect(saved.size).toBe(2);
  });

  it("round-trips a usage through JSON, NaN bucket starts included, and refuses a foreign shape", () => {
    const usage: SessionUsage = {
      source: "claude-code",
      totals: { input_tokens: 1 } as SessionUsage["totals"],
      main: { input_tokens: 1 } as SessionUsage["main"],
      subagents: { input_tokens: 0 } as SessionUsage["subagents"],
      buckets: [{ model: "m", kind: "main", startMs: NaN, input: 1, output: 0, cacheWrite: 0, cacheWrite1h: 0, cacheRead: 0, requests: 1, cost: null }],
      lines: { line: new Uint32Array([4]), input: new Float64Array([1]), output: new Float64Array([0]), cacheWrite: new Float64Array([0]), cacheRead: new Float64Array([0]), total: new Float64Array([1]) },
      firstMs: null,
      lastMs: 5,
    };
    expect(usageFromJson(JSON.parse(JSON.stringify(usageToJson(usage))))).toEqual(usage);
    // Stored before issue 36 with totals by model, which nothing read: loaded without them.
    expect(usageFromJson({ ...(JSON.parse(JSON.stringify(usageToJson(usage))) as object), by_model: [] })).toEqual(usage);
    expect(usageFromJson({ source: "claude-code" })).toBeNull();
    expect(usageFromJson(null)).toBeNull();
  });
});

describe("usage counted from the records prepare's analysis builds (issue 25)", () => {
  it("tallies what usageOfFiles counts of the same file: streamed duplicates, escaped keys, naive and missing timestamps, synthetic messages, a parsed trigger line", async () => {
    const { analyzeClaudeTranscript } = await import("@/lib/sources/claude-code/analyze");
    const { UsageCounter } = await import("@/lib/usage/session-usage");
    const u = { input_tokens: 10, output_tokens: 3, cache_read_input_tokens: 7, cache_creation_input_tokens: 40, cache_creation: { ephemeral_1h_input_tokens: 25 } };
    const main = await file([
      JSON.stringify({ type: "user", timestamp: "2026-01-01T23:50:00Z", sessionId: "s", cwd: "/p", message: { role: "user", content: "hi" } }),
      assistant("2026-01-01T23:55:00Z", "m1", "r1", "claude-sonnet-4-5-20250929", { ...u, output_tokens: 1 }),
      assistant("2026-01-01T23:55:01Z", "m1", "r1", "claude-sonnet-4-5-20250929", u),
      // The key escaped: usageOfFiles' byte test leaves the line out, so must the tally.
      assistant("2026-01-02T00:10:00Z", "m2", "r2", "claude-sonnet-4-5-20250929", u).replace('"usage"', '"\\u0075sage"'),
      // A naive timestamp (no zone) and none at all: counted, in the bucket without a time.
      assistant("2026-01-02T00:20:00", "m3", "r3", "claude-opus-4-5-20251101", u),
      JSON.stringify({ type: "assistant", requestId: "r4", message: { id: "m4", model: "claude-opus-4-5-20251101", usage: u } }),
      assistant("2026-01-02T00:30:00Z", "m5", null, "<synthetic>", u),
      "not json",
      assistant("2026-01-02T00:40:00Z", "", "r6", "", u),
      JSON.stringify({ type: "user", timestamp: "2026-01-02T01:00:00Z", message: { role: "user", content: "again" } }),
      assistant("2026-01-02T01:01:00.123456+02:00", "m7", "r7", "claude-haiku-4-5-20251001", u),
    ]);
    const counter = new UsageCounter("claude-code");
    const analysis = await analyzeClaudeTranscript(main, null, { onRecord: counter.line.bind(counter) });
    expect(analysis.recordsGiven).toBe(true);
    const read = await usageOfFiles("claude-code", [{ kind: "main", path: main }], bundledPricing());
    expect(read.totals.requests).toBe(5);
    expect(counter.tally(bundledPricing())).toEqual({ totals: read.totals, buckets: read.buckets, firstMs: read.firstMs, lastMs: read.lastMs });
    expect(read.buckets.filter((b) => Number.isNaN(b.startMs)).map((b) => b.requests)).toEqual([2]);
  });
});

describe("Codex usage counted from the records prepare's analysis reads (issue 25)", () => {
  it("tallies what usageOfFiles counts of the same rollout: model changes, a total that goes back, last usage only, escaped kinds, naive times", async () => {
    const { analyzeCodexTranscript } = await import("@/lib/sources/codex/analyze");
    const { UsageCounter } = await import("@/lib/usage/session-usage");
    const event = (ts: string, info: unknown) => JSON.stringify({ timestamp: ts, type: "event_msg", payload: { type: "token_count", info, rate_limits: { primary: { used_percent: 1 } } } });
    const total = (input: number, cached: number, output: number) => ({ input_tokens: input, cached_input_tokens: cached, output_tokens: output, reasoning_output_tokens: 0, total_tokens: input + output });
    const rollout = await file([
      JSON.stringify({ timestamp: "2026-02-13T17:49:21.451Z", type: "session_meta", payload: { id: "019c581e-8542-7bb1-b7e1-7e6221c3047c", timestamp: "2026-02-13T17:48:41.154Z", cwd: "/p", originator: "codex_cli_rs", model: "gpt-5" } }),
      JSON.stringify({ timestamp: "2026-02-13T17:49:22.000Z", type: "response_item", payload: { type: "message", role: "user", content: [{ type: "input_text", text: "hi" }] } }),
      event("2026-02-13T17:49:23.000Z", null),
      event("2026-02-13T17:49:24.000Z", { total_token_usage: total(1000, 200, 50), last_token_usage: total(1000, 200, 50) }),
      JSON.stringify({ timestamp: "2026-02-13T17:50:00.000Z", type: "turn_context", payload: { cwd: "/p", model: "gpt-5-codex", approval_policy: "never" } }),
      event("2026-02-13T18:10:00.000Z", { total_token_usage: total(3000, 1200, 90), last_token_usage: total(2000, 1000, 40) }),
      // The total went back (a resumed file): this event's own last usage counts.
      event("2026-02-13T18:11:00.000Z", { total_token_usage: total(500, 0, 10), last_token_usage: total(500, 0, 10) }),
      event("2026-02-13T18:12:00", { last_token_usage: total(70, 7, 7) }),
      // The kind escaped: usageOfFiles' byte test leaves it out, so must the tally.
      event("2026-02-13T18:13:00.000Z", { last_token_usage: total(9, 0, 9) }).replace('"token_count"', '"token\\u005fcount"'),
      "{ not json",
      event("2026-02-13T18:14:00.000Z", { total_token_usage: total(800, 100, 30) }),
    ]);
    const counter = new UsageCounter("codex");
    await analyzeCodexTranscript(rollout, null, undefined, { fingerprints: false, onRecord: (line, record, ts, bytes, start, end) => record && counter.line(line, record, ts, bytes, start, end) });
    const read = await usageOfFiles("codex", [{ kind: "main", path: rollout }], bundledPricing());
    expect(read.totals.requests).toBe(5);
    expect([...new Set(read.buckets.map((b) => b.model))].sort()).toEqual(["gpt-5", "gpt-5-codex"]);
    expect(counter.tally(bundledPricing())).toEqual({ totals: read.totals, buckets: read.buckets, firstMs: read.firstMs, lastMs: read.lastMs });
  });
});
