/**
 * Analysis benchmark (issue 10), not a test: `npx tsx bench/analysis.bench.ts [--runs N]`.
 *
 * 1. `analyzeSessionFile` on the ~1 GB real-shaped Claude Code session (byte ranges mapped on
 *    every core, then again in one thread with `CASEFILE_WORKERS=1`) and the ~320 MB Codex
 *    rollout of `bench/real-shaped.ts` (made of real corpus lines): MB/s wall and per CPU second
 *    of the whole process, workers included (median of `--runs`, default 3), and the process's
 *    peak RSS (`maxRSS`, measured before anything else runs). Goal: ≥ 500 MB/s, < 300 MB.
 * 2. `list_sessions` with risk over one project of 1,000 sessions (copies of corpus sessions,
 *    one in ten a phantom-reads example with context resets), cold (every analysis computed)
 *    and warm (cached per file version), plus the `risk: "high"` filter. Goal: ≤ 500 ms warm.
 * Artefacts live under /tmp/casefile-bench/ and are reused. The machine is shared: read medians.
 */
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

import { analyzeSessionFile } from "@/lib/analysis/analyze-file";
import { createCoreContext } from "@/lib/context";
import { rangeCount } from "@/lib/jsonl/workers";
import { listSessions } from "@/lib/forensics/__fixtures__/list-sessions";
import { loadWorkspace } from "@/lib/workspace/load";
import { prepareWorkspace } from "@/lib/workspace/prepare";

import { ensureRealShapedSessions } from "./real-shaped";

const args = process.argv.slice(2);
const RUNS = Number(args[args.indexOf("--runs") + 1] ?? 3) || 3;
const CORPUS = path.resolve(fileURLToPath(new URL("../", import.meta.url)), "../shared/corpus/claude-code");
const LIST_DIR = "/tmp/casefile-bench/analysis-list";
const LIST_SESSIONS = 1_000;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(0)} MB`;

async function throughput(): Promise<void> {
  const sessions = await ensureRealShapedSessions();
  const workers = process.env.CASEFILE_WORKERS;
  for (const [source, file, bytes, threads] of [
    ["claude-code", sessions.claude, sessions.claudeStats.bytes, "ranges on every core"],
    ["claude-code", sessions.claude, sessions.claudeStats.bytes, "one thread"],
    ["codex", sessions.codex, sessions.codexStats.bytes, "one thread"],
  ] as const) {
    if (threads === "one thread") process.env.CASEFILE_WORKERS = "1";
    else if (workers === undefined) delete process.env.CASEFILE_WORKERS;
    else process.env.CASEFILE_WORKERS = workers;
    const times: number[] = [];
    const cpu: number[] = [];
    let resets = 0;
    let points = 0;
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      const a = await analyzeSessionFile(file, source);
      times.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
      resets = a.reset_count;
      points = a.token_points.length;
    }
    const t = median(times);
    const maxRssMb = process.resourceUsage().maxRSS / 1024;
    const label = threads === "one thread" ? "one thread" : `${rangeCount(bytes)} ranges`;
    console.log(
      `analyze ${source} ${mb(bytes)} (${label}): ${(bytes / 1e6 / (t / 1000)).toFixed(0)} MB/s wall, ${(bytes / 1e6 / (median(cpu) / 1000)).toFixed(0)} MB/s per CPU second (median ${(t / 1000).toFixed(2)} s of ${times.map((x) => (x / 1000).toFixed(2)).join(", ")}), ` +
        `${resets} resets, ${points} token points; peak RSS so far ${maxRssMb.toFixed(0)} MB`,
    );
  }
  if (workers === undefined) delete process.env.CASEFILE_WORKERS;
  else process.env.CASEFILE_WORKERS = workers;
}

/** 1,000 sessions in one project: corpus sessions copied under new ids with one shared cwd. */
async function ensureListSources(): Promise<string> {
  const src = path.join(LIST_DIR, "sources", "-bench-analysis-list");
  if (existsSync(path.join(LIST_DIR, "sources", "done"))) return path.dirname(src);
  await fs.rm(LIST_DIR, { recursive: true, force: true });
  await fs.mkdir(src, { recursive: true });
  const small = ["misc/marot__spotter/test/fixtures/transcripts/short.jsonl", "misc/marot__spotter/test/fixtures/transcripts/tool_heavy.jsonl", "misc/oneryalcin__fasthooks/specs/data/sample_main_transcript.jsonl", "misc/codemie-ai__codemie-code/tests/integration/session/fixtures/session-9eda1058.jsonl"];
  const phantom = ["2.0.58-bad/3020c1e3-a661-4879-8854-35eb023fd030.jsonl", "2.0.58-good/c489af7a-584d-4276-a76c-ddb29f988ace.jsonl", "2.1.6-bad/bf88e2ff-ac8b-4f29-8dbf-c2467325fe4e.jsonl"].map((p) => `phantom-reads/session-examples/${p}`);
  const texts = new Map<string, string>();
  for (const rel of [...small, ...phantom]) texts.set(rel, (await fs.readFile(path.join(CORPUS, rel), "utf8")).replace(/"cwd":"[^"]*"/g, '"cwd":"/bench/analysis-list"'));
  for (let i = 0; i < LIST_SESSIONS; i++) {
    const rel = i % 10 === 0 ? phantom[(i / 10) % phantom.length]! : small[i % small.length]!;
    const id = `0000a11a-0000-4000-8000-${String(i).padStart(12, "0")}`;
    await fs.writeFile(path.join(src, `${id}.jsonl`), texts.get(rel)!);
  }
  await fs.writeFile(path.join(LIST_DIR, "sources", "done"), "");
  return path.dirname(src);
}

async function listWithRisk(): Promise<void> {
  const root = await ensureListSources();
  const workspace = path.join(LIST_DIR, "workspace");
  const ctx = createCoreContext(workspace);
  if (!existsSync(path.join(workspace, "metadata.json"))) {
    const t0 = performance.now();
    await prepareWorkspace(ctx, { claudeRoots: [root] });
    console.log(`prepared ${LIST_SESSIONS} sessions in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  const project = (await loadWorkspace(ctx)).projects[0]!;
  const input = { project_key: project.projectKey, sort: "reset_count", order: "desc", limit: 50 };
  let t0 = performance.now();
  const cold = await listSessions(ctx, input);
  const coldMs = performance.now() - t0;
  const warm: number[] = [];
  for (let i = 0; i < 5; i++) {
    t0 = performance.now();
    await listSessions(ctx, input);
    warm.push(performance.now() - t0);
  }
  t0 = performance.now();
  const high = await listSessions(ctx, { ...input, risk: "high" });
  const highMs = performance.now() - t0;
  const total = "total" in cold ? cold.total : 0;
  console.log(
    `list_sessions with risk, ${total} sessions: cold ${coldMs.toFixed(0)} ms (in-process cache empty), warm median ${median(warm).toFixed(0)} ms (${warm.map((x) => x.toFixed(0)).join(", ")}), ` +
      `risk=high ${highMs.toFixed(0)} ms → ${"total" in high ? high.total : "?"} sessions; goal ≤ 500 ms warm`,
  );
}

await throughput();
await listWithRisk();
