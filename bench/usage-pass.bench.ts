/**
 * Usage pass benchmark (issue 29), not a test: `npx tsx bench/usage-pass.bench.ts [--runs N]`.
 *
 * Times lib/usage's counting pass (`usageOfFiles`: main transcript and subagents) over the
 * ≥ 900 MB real-shaped Claude Code session of `bench/real-shaped.ts` and the Codex rollout, in
 * this process (the page cache warm after the first run), and the read of the usage a prepare
 * stored under `.casefile/usage/` (what a first Analysis visit after `prepare` costs). Set
 * `CASEFILE_REAL_SHAPED_DIR` for a directory of your own on a shared machine; `--workspace DIR`
 * (default `<dir>/usage-ws`) is prepared once and reused.
 */
import { performance } from "node:perf_hooks";

import { createCoreContext } from "@/lib/context";
import { clearUsageCache, usageOfFiles } from "@/lib/usage/session-usage";
import { loadPricing } from "@/lib/usage/pricing";
import { readSessionUsage } from "@/lib/workspace/session-usage";
import { resolveSession, sessionFiles } from "@/lib/workspace/sessions";
import { pricingOverrideFile } from "@/lib/workspace/sources";

import { ensureRealShapedWorkspace, REAL_SHAPED_DIR } from "./real-shaped";

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
};
const RUNS = Math.max(1, Number(flag("--runs") ?? 3));
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

const ws = await ensureRealShapedWorkspace({ workspace: flag("--workspace") ?? `${REAL_SHAPED_DIR}/usage-ws` });
const ctx = createCoreContext(ws.workspace);
const pricing = await loadPricing(pricingOverrideFile(ws.workspace));
for (const s of [ws.claudeSession, ws.codexSession]) {
  const resolved = await resolveSession(ctx, s.project_key, s.session_ref);
  if (!resolved.ok) throw new Error(`no session ${s.project_key}/${s.session_ref}`);
  const session = resolved.session;
  const files = (await sessionFiles(session)).flatMap((f) => (f.kind === "tool_result" ? [] : [{ kind: f.kind, path: f.path }]));
  const bytes = (await sessionFiles(session)).filter((f) => f.kind !== "tool_result").reduce((n, f) => n + f.size_bytes, 0);
  const times: number[] = [];
  let requests = 0;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const usage = await usageOfFiles(session.row.source, files, pricing);
    times.push(performance.now() - t0);
    requests = usage.totals.requests;
  }
  clearUsageCache();
  const t1 = performance.now();
  await readSessionUsage(ctx, session);
  const stored = performance.now() - t1;
  console.log(`${session.row.source} ${(bytes / 1e6).toFixed(0)} MB, ${requests} requests: usage pass median ${median(times).toFixed(0)} ms (${times.map((t) => t.toFixed(0)).join(", ")}); readSessionUsage in a fresh cache ${stored.toFixed(0)} ms`);
}
