/**
 * Benchmark (not a test): what the audit ledger costs (issue 8, "Done when").
 *
 * Prints:
 *  - p50/p95 of a 20-line compact `read_session_lines` call through the registry with the ledger
 *    (two locked appends, input and output blobs) and of the same read without it (the core
 *    function the tool runs), and the p50 difference (goal ≤ 2 ms added);
 *  - audit/ growth for 1,000 compact `read_session_lines` calls of 2,000-line windows over a
 *    40,000-line session (goal < 100 MB, issue 26: outputs compressed, de-duplicated, and large
 *    reads stored as references to their source bytes);
 *  - reading 1 new entry from a 100 MB ledger (10 rotated 10 MiB segments plus the active file)
 *    once the index is warm (goal ≤ 5 ms), and the cold index build for scale.
 *
 * Run: `npx tsx bench/ledger.bench.ts`
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";

import { createCoreContext } from "@/lib/context";
import { getLedger, Ledger } from "@/lib/ledger/ledger-store";
import { segmentName } from "@/lib/ledger/paths";
import { PROCESS_ID } from "@/lib/ledger/reconcile";
import type { FinishedEntry, StartedEntry } from "@/lib/ledger/schema";
import { readSessionLines } from "@/lib/session-reader/read-session-lines";
import { buildTestWorkspace, TEST_PROJECT_KEY, userLines } from "@/lib/testing/workspace-builder";
import { callTool } from "@/lib/tools/registry";

const ITERATIONS = 300;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * The two variants alternate call by call, so a loaded machine's swings hit both alike (two
 * separate runs of 300 calls each differed by ±1 ms between runs on a shared 2-core machine).
 */
async function tracingOverhead(): Promise<void> {
  const root = await buildTestWorkspace([{ ref: "S0001", content: userLines(400), turns: [{ turn_ref: "T0001", turn_start_line: 1, turn_end_line: 400 }] }]);
  const ctx = createCoreContext(root);
  const input = (i: number) => ({ project_key: TEST_PROJECT_KEY, session_ref: "S0001", start_line: 1 + (i % 380), end_line: 20 + (i % 380), mode: "compact" });
  const without: number[] = [];
  const withLedger: number[] = [];
  const added: number[] = [];
  for (let i = -20; i < ITERATIONS; i += 1) {
    let t = performance.now();
    await readSessionLines(ctx, input(i + 20));
    const a = performance.now() - t;
    t = performance.now();
    await callTool(ctx, "read_session_lines", input(i + 20), { door: "cli" });
    const b = performance.now() - t;
    if (i < 0) continue; // warm-up
    without.push(a);
    withLedger.push(b);
    added.push(b - a);
  }
  for (const list of [without, withLedger, added]) list.sort((x, y) => x - y);
  const entries = (await getLedger(root).read()).entries.length;
  console.log(`read_session_lines (20 lines, compact), ${ITERATIONS} calls each, alternating (${entries} ledger entries written):`);
  console.log(`  without ledger  p50 ${percentile(without, 50).toFixed(2)} ms  p95 ${percentile(without, 95).toFixed(2)} ms`);
  console.log(`  with ledger     p50 ${percentile(withLedger, 50).toFixed(2)} ms  p95 ${percentile(withLedger, 95).toFixed(2)} ms`);
  console.log(`  tracing adds    p50 ${(percentile(withLedger, 50) - percentile(without, 50)).toFixed(2)} ms; per-call difference p50 ${percentile(added, 50).toFixed(2)} ms (goal ≤ 2 ms)`);
}

function pair(i: number): string {
  const receipt = randomUUID();
  const hash = "a".repeat(63) + (i % 10);
  const started: StartedEntry = {
    schema_version: 1,
    kind: "tool_call_started",
    receipt_id: receipt,
    task_id: `bench-000000000000/S${String(i % 500).padStart(4, "0")}`,
    tool_name: "read_session_lines",
    door: "mcp",
    client: "bench",
    timestamp: new Date(Date.UTC(2026, 10, 1) + i * 1000).toISOString(),
    input_hash: hash,
    input_ref: `inputs/${hash}`,
    scope_enforced: [{ type: "path", pattern: "projects/bench-000000000000/**", access: "read" }],
    pid: 4242,
    host: os.hostname(),
    process_id: PROCESS_ID,
  };
  const finished: FinishedEntry = {
    schema_version: 1,
    kind: "tool_call_finished",
    receipt_id: receipt,
    timestamp: started.timestamp,
    result: "success",
    duration_ms: 3,
    status: "ok",
    output_hash: hash,
    output_ref: `inputs/${hash}`,
    policy_decisions: [
      { policy_id: "door.mcp", decision: "allow", reason: "stdio MCP client: a local process (bench)" },
      { policy_id: "tool.read_only", decision: "allow", reason: "read-only tool: approved without review" },
      { policy_id: "input.schema", decision: "allow" },
      { policy_id: "path.containment", decision: "allow", reason: "projects/bench-000000000000/sessions/claude-code/s.jsonl" },
    ],
    artifacts_written: [],
  };
  return `${JSON.stringify(started)}\n${JSON.stringify(finished)}\n`;
}

async function bigLedger(): Promise<void> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "casefile-ledger-bench-"));
  const ledger = new Ledger(root);
  await fs.mkdir(ledger.paths.tracesDir, { recursive: true });
  const SEGMENT = 10 * 1024 * 1024;
  let i = 0;
  let total = 0;
  for (let seg = 1; seg <= 10; seg += 1) {
    const parts: string[] = [];
    let size = 0;
    while (size < SEGMENT) {
      const text = pair(i++);
      parts.push(text);
      size += Buffer.byteLength(text);
    }
    await fs.writeFile(path.join(ledger.paths.tracesDir, segmentName(seg)), parts.join(""));
    total += size;
  }
  await fs.writeFile(ledger.paths.active, pair(i++));
  console.log(`ledger of ${(total / 1024 / 1024).toFixed(0)} MiB, ${i * 2} entries in 10 segments + the active file:`);
  const cold = performance.now();
  await ledger.read();
  console.log(`  cold index build ${(performance.now() - cold).toFixed(0)} ms`);
  const reads: number[] = [];
  for (let k = 0; k < 50; k += 1) {
    await fs.appendFile(ledger.paths.active, pair(i++).split("\n")[0] + "\n");
    const t = performance.now();
    await ledger.read();
    reads.push(performance.now() - t);
  }
  reads.sort((a, b) => a - b);
  console.log(`  read 1 new entry, warm index: p50 ${percentile(reads, 50).toFixed(2)} ms  p95 ${percentile(reads, 95).toFixed(2)} ms (goal ≤ 5 ms)`);
  await fs.rm(root, { recursive: true, force: true });
}

/** Bytes under `dir`, recursively. */
async function duBytes(dir: string): Promise<number> {
  let total = 0;
  for (const e of await fs.readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const full = path.join(dir, e.name);
    total += e.isDirectory() ? await duBytes(full) : (await fs.stat(full)).size;
  }
  return total;
}

/** A session line like a real transcript's: user prompts, assistant text and tool calls with results. */
function realishLine(i: number): string {
  const text = `step ${i}: ${"the quick brown fox inspects the session transcript and writes evidence ".repeat(1 + (i % 9))}`;
  if (i % 3 === 0) return JSON.stringify({ type: "user", timestamp: "2026-05-12T01:00:00Z", uuid: `u-${i}`, message: { role: "user", content: text } });
  if (i % 3 === 1) return JSON.stringify({ type: "assistant", timestamp: "2026-05-12T01:00:01Z", uuid: `a-${i}`, message: { role: "assistant", content: [{ type: "text", text }, { type: "tool_use", id: `t-${i}`, name: "Read", input: { file_path: `/src/file-${i % 50}.ts` } }] } });
  return JSON.stringify({ type: "user", timestamp: "2026-05-12T01:00:02Z", uuid: `r-${i}`, message: { role: "user", content: [{ type: "tool_result", tool_use_id: `t-${i - 1}`, content: text.repeat(3) }] } });
}

async function auditGrowth(): Promise<void> {
  const LINES = 40_000;
  const WINDOW = 2_000;
  const CALLS = 1_000;
  const content = `${Array.from({ length: LINES }, (_, i) => realishLine(i)).join("\n")}\n`;
  const root = await buildTestWorkspace([{ ref: "S0001", content, turns: [{ turn_ref: "T0001", turn_start_line: 1, turn_end_line: LINES }] }]);
  const ctx = createCoreContext(root);
  const auditDir = getLedger(root).paths.root;
  const before = await duBytes(auditDir);
  let outputChars = 0;
  const t = performance.now();
  for (let i = 0; i < CALLS; i += 1) {
    // Distinct windows (a start every 37 lines), so de-duplication alone cannot help.
    const start = 1 + ((i * 37) % (LINES - WINDOW));
    const result = await callTool(ctx, "read_session_lines", { project_key: TEST_PROJECT_KEY, session_ref: "S0001", start_line: start, end_line: start + WINDOW - 1 }, { door: "mcp" });
    if (result.status !== "ok") throw new Error(JSON.stringify(result).slice(0, 300));
    if (i < 5) outputChars += JSON.stringify(result).length;
  }
  const ms = performance.now() - t;
  const grown = (await duBytes(auditDir)) - before;
  console.log(`audit growth, ${CALLS} read_session_lines calls of ${WINDOW}-line compact windows over a ${LINES}-line session (${(Buffer.byteLength(content) / 1048576).toFixed(0)} MB):`);
  console.log(`  output per call ≈ ${(outputChars / 5 / 1048576).toFixed(2)} MB; audit/ grew ${(grown / 1048576).toFixed(2)} MB (${(grown / CALLS / 1024).toFixed(1)} KB per call; goal < 100 MB); ${(ms / CALLS).toFixed(1)} ms per call`);
  await fs.rm(root, { recursive: true, force: true });
}

await tracingOverhead();
await auditGrowth();
await bigLedger();
