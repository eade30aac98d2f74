/**
 * One first-ever `session_overview` in this process on the scan bench's workspace (stored scan
 * deleted first), for profiling: `node --cpu-prof --import tsx bench/scan-profile.ts`.
 */
import fs from "node:fs/promises";
import path from "node:path";

import { REAL_SHAPED_DIR } from "./real-shaped";
import { sessionAuditEvents } from "@/lib/ledger/session-audit";

const WORKSPACE = process.env.SCAN_BENCH_WS ?? path.join(path.dirname(REAL_SHAPED_DIR), "scan-ws");
const storeDir = path.join(WORKSPACE, ".casefile", "forensics");
for (const name of await fs.readdir(storeDir).catch(() => [] as string[])) if (name.endsWith(".scan")) await fs.rm(path.join(storeDir, name));
const { createCoreContext } = await import("@/lib/context");
const { sessionOverview } = await import("@/lib/forensics/overview");
const ctx = createCoreContext(WORKSPACE);
const projects = path.join(WORKSPACE, "projects");
let target: { project_key: string; session_ref: string } | null = null;
for (const key of await fs.readdir(projects)) {
  const index = await fs.readFile(path.join(projects, key, "sessions.index.jsonl"), "utf8").catch(() => "");
  for (const line of index.split("\n").filter(Boolean)) {
    const row = JSON.parse(line) as { session_ref: string; source: string };
    if (row.source === "claude-code") target = { project_key: key, session_ref: row.session_ref };
  }
}
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const r = await sessionOverview(ctx, target!, sessionAuditEvents);
const cpu = process.cpuUsage(cpu0);
console.log(`${((performance.now() - t0) / 1000).toFixed(2)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s CPU, rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB, status ${r.status}`);
