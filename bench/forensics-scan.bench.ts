/**
 * First-ever `session_overview` benchmark (issue 9), not a test:
 * `npx tsx bench/forensics-scan.bench.ts [runs]`.
 *
 * On the ~1 GB real-shaped Claude Code session (`bench/real-shaped.ts`), in a workspace of its own
 * (`/tmp/casefile-bench/scan-ws`, prepared once), it deletes the stored scan
 * (`.casefile/forensics/*.scan`) and runs `session_overview` in a fresh process, `runs` times
 * (default 3), printing wall ms, CPU seconds (user+sys) and peak RSS of each (goal ≤ 2 s,
 * < 300 MB), then once more with the stored scan. The machine is shared: read CPU seconds too.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

import { REAL_SHAPED_DIR, realShapedTarget, type RealShapedTarget as Target } from "./real-shaped";
import { sessionAuditEvents } from "@/lib/ledger/session-audit";

const WORKSPACE = process.env.SCAN_BENCH_WS ?? path.join(path.dirname(REAL_SHAPED_DIR), "scan-ws");
const SELF = fileURLToPath(import.meta.url);
const APP_DIR = path.resolve(path.dirname(SELF), "..");

async function child(): Promise<void> {
  const t = JSON.parse(process.env.SCAN_BENCH_TARGET!) as Target;
  const { createCoreContext } = await import("@/lib/context");
  const { sessionOverview } = await import("@/lib/forensics/overview");
  const ctx = createCoreContext(WORKSPACE);
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await sessionOverview(ctx, { project_key: t.project_key, session_ref: t.session_ref }, sessionAuditEvents);
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(JSON.stringify({ ms, cpuS: (cpu.user + cpu.system) / 1e6, peakRssMb: peak / 2 ** 20, result }));
}

async function runChild(t: Target, label: string): Promise<unknown> {
  const run = spawnSync("npx", ["tsx", "--tsconfig", path.join(APP_DIR, "tsconfig.json"), SELF, "--child"], {
    cwd: APP_DIR,
    encoding: "utf8",
    env: { ...process.env, SCAN_BENCH_TARGET: JSON.stringify(t) },
    maxBuffer: 64 << 20,
  });
  const line = run.stdout.split("\n").find((l) => l.startsWith("{"));
  if (!line) {
    console.log("overview child failed:", run.stderr.slice(-2000));
    return null;
  }
  const o = JSON.parse(line) as { ms: number; cpuS: number; peakRssMb: number; result: unknown };
  console.log(`session_overview ${label}: ${(o.ms / 1000).toFixed(2)} s wall, ${o.cpuS.toFixed(2)} s CPU in the process, peak RSS ${o.peakRssMb.toFixed(0)} MB (goal ≤ 2 s, < 300 MB)`);
  return o.result;
}

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? 3);
  const t = await realShapedTarget(WORKSPACE);
  const storeDir = path.join(WORKSPACE, ".casefile", "forensics");
  let first: unknown = null;
  for (let i = 1; i <= runs; i++) {
    for (const name of await fs.readdir(storeDir).catch(() => [] as string[])) if (name.endsWith(".scan")) await fs.rm(path.join(storeDir, name));
    const r = await runChild(t, `first-ever #${i} (no stored scan)`);
    if (i === 1) first = r;
  }
  const stored = await runChild(t, "with the stored scan");
  if (process.env.SCAN_BENCH_OUT) await fs.writeFile(process.env.SCAN_BENCH_OUT, JSON.stringify(first, null, 1));
  console.log(`stored-scan result ${JSON.stringify(stored) === JSON.stringify(first) ? "identical to" : "DIFFERS from"} the first-ever result`);
}

if (process.argv.includes("--child")) await child();
else await main();
