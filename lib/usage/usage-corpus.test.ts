/** Usage of the corpus sessions against ccusage's report. */
import path from "node:path";

import { beforeAll, describe, expect, it } from "vitest";

import { createCoreContext, type CoreContext } from "@/lib/context";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import type { SessionUsage } from "@/lib/usage/session-usage";
import { CountedUsages, readSessionUsage } from "@/lib/workspace/session-usage";
import { loadWorkspace } from "@/lib/workspace/load";
import { prepareWorkspace } from "@/lib/workspace/prepare";
import { getSession } from "@/lib/workspace/sessions";

import recorded from "./__fixtures__/ccusage-20.0.24.json";

type Recorded = (typeof recorded.sessions)[number] & { source_session_id?: string; session_file?: string };

/** Per-session usage of every corpus session against the figures recorded from ccusage 20.0.24 --offline (see the fixture's `how`). */
describe.skipIf(!HAS_SHARED)(`token accounting equals ccusage on the corpus${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  let ctx: CoreContext;
  const counted = new CountedUsages();
  const usage = new Map<string, { projectKey: string; row: { source: string; source_session_id: string; session_path: string; session_ref: string }; usage: SessionUsage }>();

  beforeAll(async () => {
    ctx = createCoreContext(await makeTempDir(), { now: () => new Date("2026-11-28T00:00:00Z") });
    await prepareWorkspace(ctx, { claudeRoots: [path.join(SHARED_DIR, "corpus", "claude-code")], codexRoots: [path.join(SHARED_DIR, "corpus", "codex")], counted });
    for (const p of (await loadWorkspace(ctx)).projects) {
      for (const row of p.rows) {
        const stem = path.basename(row.session_path, ".jsonl");
        const key = row.source === "codex" ? `codex:${p.projectKey}/${stem}` : `claude-code:${p.projectKey}/${row.source_session_id}`;
        usage.set(key, { projectKey: p.projectKey, row, usage: await readSessionUsage(ctx, await getSession(ctx, p.projectKey, row.session_ref)) });
      }
    }
  }, 120_000);

  const keyOf = (r: Recorded) => (r.source === "codex" ? `codex:${r.project_key}/${r.session_file}` : `claude-code:${r.project_key}/${r.source_session_id}`);

  it("finds every session ccusage reports, and every Claude Code session of the corpus is one of them", () => {
    for (const r of recorded.sessions as Recorded[]) expect(usage.has(keyOf(r)), keyOf(r)).toBe(true);
    const claude = [...usage.keys()].filter((k) => k.startsWith("claude-code:"));
    expect(claude.length).toBe((recorded.sessions as Recorded[]).filter((r) => r.source === "claude-code").length);
  });

  it.each((recorded.sessions as Recorded[]).map((r) => [keyOf(r), r] as const))("%s: tokens by kind equal ccusage's, cost within 0.5%%", (key, r) => {
    const u = usage.get(key)!.usage.totals;
    expect({ input: u.input_tokens, output: u.output_tokens, cache_creation: u.cache_creation_tokens, cache_read: u.cache_read_tokens, total: u.total_tokens }).toEqual({
      input: r.input_tokens,
      output: r.output_tokens,
      cache_creation: r.cache_creation_tokens,
      cache_read: r.cache_read_tokens,
      total: r.total_tokens,
    });
    expect(u.unpriced_models).toEqual([]);
    expect(Math.abs(u.cost_usd! - r.cost_usd) / r.cost_usd).toBeLessThan(0.005);
  });

  it("reports no usage for the Codex files ccusage lists none for (legacy format, redacted counts)", () => {
    const listed = new Set((recorded.sessions as Recorded[]).map(keyOf));
    const rest = [...usage].filter(([k]) => k.startsWith("codex:") && !listed.has(k));
    expect(rest.length).toBe(2);
    for (const [, { usage: u }] of rest) expect(u.totals.total_tokens).toBe(0);
  });

  it("counts subagents into their session and shows them apart", () => {
    const u = usage.get("claude-code:spotter-gqc-f2b23ef1c061/258c7280-ae70-4798-800f-63464d01a85d")!.usage;
    expect(u.subagents.requests).toBeGreaterThan(0);
    expect(u.main.output_tokens + u.subagents.output_tokens).toBe(u.totals.output_tokens);
    expect(u.main.cost_usd! + u.subagents.cost_usd!).toBeCloseTo(u.totals.cost_usd!, 9);
  });

  it("prepare's analysis tallies the usage of every session it copies (Claude Code subagents included, Codex of both line formats), as reading its copies counts it (issue 25)", () => {
    const tallied = { "claude-code": 0, codex: 0, codexUsed: 0, subagents: 0 };
    for (const { projectKey, row, usage: u } of usage.values()) {
      const c = counted.take(projectKey, row.session_ref);
      expect(c, `${projectKey}/${row.session_ref}`).toBeDefined();
      tallied[row.source as "claude-code" | "codex"] += 1;
      if (row.source === "codex" && u.totals.requests > 0) tallied.codexUsed += 1;
      if (u.subagents.requests > 0) tallied.subagents += 1;
      expect(c!.usage, `${projectKey}/${row.session_ref}`).toEqual({ totals: u.totals, buckets: u.buckets, firstMs: u.firstMs, lastMs: u.lastMs });
    }
    expect(tallied["claude-code"]).toBeGreaterThan(10);
    expect(tallied.codex).toBeGreaterThanOrEqual(5);
    expect(tallied.codexUsed).toBeGreaterThanOrEqual(3);
    expect(tallied.subagents).toBeGreaterThanOrEqual(5);
    expect(counted.size).toBe(0);
  });
});
