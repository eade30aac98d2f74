/** write_work_item from separate processes. */
import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";

import { beforeAll, describe, expect, it } from "vitest";

import { bundleWorker, startWorker, untilOutput, type WorkerRun } from "@/lib/testing/bundle-worker";

import { createCoreContext } from "@/lib/context";
import { envelopeFile, PROJECT, spans, storedChain, writeCard } from "@/lib/synthesis/__fixtures__/synthesis-workspace";
import { getSynthesisState } from "@/lib/synthesis/synthesis-state";
import { writeWorkItem } from "@/lib/synthesis/write-work-item";
import { buildTestWorkspace, userLines } from "@/lib/testing/workspace-builder";

/*
 * Writers in separate processes (issue 4, "Done when": 32 work items from 4 processes, SIGKILL
 * during writes). The worker is bundled once with esbuild and run with plain node (~0.1 s per
 * spawn instead of ~0.8 s through tsx), which keeps 200 kill rounds fast.
 */

let worker = "";
beforeAll(async () => {
  worker = await bundleWorker("lib/synthesis/__fixtures__/synthesis-worker.ts");
});

/** A workspace of `sessions` sessions × `turnsEach` 2-line turns; every `gapEvery`-th turn has no chain. */
async function buildWorkspace(sessions: number, turnsEach: number, gapEvery = 0): Promise<string> {
  const refs = Array.from({ length: sessions }, (_, i) => `S${String(i + 1).padStart(4, "0")}`);
  const turns = spans(...Array.from({ length: turnsEach }, (_, i): [number, number] => [2 * i + 1, 2 * i + 2]));
  const root = await buildTestWorkspace(refs.map((ref) => ({ ref, content: userLines(2 * turnsEach), turns })));
  let n = 0;
  for (const ref of refs) {
    await writeCard(root, ref, turns.filter(() => (n += 1) && !(gapEvery > 0 && n % gapEvery === 0)).map((t) => storedChain(t.turn_ref, [{ text: `message ${ref}/${t.turn_ref}` }])));
  }
  return root;
}

const start = (args: string[]): WorkerRun => startWorker(worker, args);

async function appendInProcesses(root: string, lanes: string[][]): Promise<string[]> {
  const startAt = String(Date.now() + 500);
  const runs = lanes.map((specs) => start(["append", root, PROJECT, startAt, ...specs]));
  await Promise.all(runs.map((r) => r.exit));
  return runs.flatMap((r) => {
    expect(r.stderr()).toBe("");
    return JSON.parse(r.stdout()) as string[];
  });
}

const ref = (n: number) => `W${String(n).padStart(4, "0")}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every covered turn of the envelope, as "S/T" strings, in item order. */
async function coveredTurns(root: string): Promise<string[]> {
  const envelope = JSON.parse(await fs.readFile(envelopeFile(root), "utf8")) as { work_items: { covered_turns: { session_ref: string; turn_ref: string }[] }[] };
  return envelope.work_items.flatMap((w) => w.covered_turns.map((t) => `${t.session_ref}/${t.turn_ref}`));
}

describe("write_work_item from separate processes", () => {
  it("4 processes submitting 32 work items at once: all committed, no turn covered twice, complete", async () => {
    const root = await buildWorkspace(1, 32);
    const lanes = [0, 1, 2, 3].map((lane) => Array.from({ length: 8 }, (_, i) => 4 * i + lane + 1).map((n) => `${ref(n)}:S0001/T${String(n).padStart(4, "0")}`));
    expect(await appendInProcesses(root, lanes)).toEqual(Array(32).fill("appended"));
    const covered = await coveredTurns(root);
    expect(covered).toHaveLength(32);
    expect(new Set(covered).size).toBe(32);
    expect(await getSynthesisState(createCoreContext(root), PROJECT)).toMatchObject({ complete: true, errors: [], uncovered_turns: [] });
  });

  it("4 processes racing for the same 8 turns: each turn committed exactly once, the rest refused", async () => {
    const root = await buildWorkspace(1, 8);
    const lanes = [1, 2, 3, 4].map((lane) => Array.from({ length: 8 }, (_, i) => `${ref(lane * 100 + i)}:S0001/T${String(i + 1).padStart(4, "0")}`));
    const results = await appendInProcesses(root, lanes);
    expect(results.filter((r) => r === "appended")).toHaveLength(8);
    expect(results.filter((r) => r !== "appended").every((m) => /^turn S0001\/T\d{4} is already covered by another work item$/.test(m))).toBe(true);
    expect((await coveredTurns(root)).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `S0001/T${String(i + 1).padStart(4, "0")}`));
  });

  it("through the CLI door: 4 `casefile tool write_work_item` processes at once", async () => {
    const root = await buildWorkspace(1, 4);
    const run = promisify(execFile);
    const cli = (n: number) =>
      run(process.execPath, [
        path.resolve("node_modules/tsx/dist/cli.mjs"),
        path.resolve("server/cli/main.ts"),
        "tool",
        "write_work_item",
        JSON.stringify({ project_key: PROJECT, work_item: { work_item_ref: ref(n), kind: "no_material_work_item", title: "t", covered_turns: [{ session_ref: "S0001", turn_ref: `T000${n}` }], confidence: "low" } }),
        "--workspace",
        root,
      ]);
    const outputs = await Promise.all([1, 2, 3, 4].map(cli));
    const left = outputs.map((o) => (JSON.parse(o.stdout) as { uncovered_turns: unknown[] }).uncovered_turns.length).sort();
    expect(left).toEqual([0, 1, 2, 3]);
    expect((await coveredTurns(root)).sort()).toEqual(["S0001/T0001", "S0001/T0002", "S0001/T0003", "S0001/T0004"]);
  });

  it("a writer killed with SIGKILL at random points, 200 times in a row, never leaves a broken envelope", { timeout: 300_000 }, async () => {
    const root = await buildWorkspace(4, 150, 7);
    const ctx = createCoreContext(root);
    let writes = 0;
    let killedMidWrite = 0;
    // Workers load ahead of their round (node startup dominates); "go" starts a write loop.
    const pending = Array.from({ length: 3 }, () => start(["churn", root, PROJECT]));
    for (let round = 0; round < 200; round += 1) {
      const run = pending.shift()!;
      await untilOutput(run, "ready");
      run.child.stdin!.write("go\n");
      if (round + pending.length < 199) pending.push(start(["churn", root, PROJECT]));
      // Even rounds kill after a committed write, odd ones after a started one: what the kill
      // interrupts follows the worker's progress, not the machine's speed.
      await untilOutput(run, round % 2 === 0 ? "w" : "s");
      await sleep(Math.random() * 40);
      run.child.kill("SIGKILL");
      await run.exit;
      expect(run.stderr()).toBe("");
      writes += run.stdout().split("w").length - 1;
      if (run.stdout().endsWith("s")) killedMidWrite += 1;
      const bytes = await fs.readFile(envelopeFile(root)).catch(() => null);
      if (bytes === null) continue;
      expect(() => JSON.parse(bytes.toString())).not.toThrow();
      const state = await getSynthesisState(ctx, PROJECT);
      expect({ round, sound: state.sound, errors: state.errors.filter((e) => !e.startsWith("missing covered turn(s): ")) }).toEqual({ round, sound: true, errors: [] });
    }
    for (const run of pending) run.child.kill("SIGKILL");
    await Promise.all(pending.map((run) => run.exit));
    // Every even round commits at least once; the write loop is busy nearly all the time, so most kills land mid-write.
    expect({ writes: writes >= 100, killedMidWrite: killedMidWrite > 50 }).toEqual({ writes: true, killedMidWrite: true });
    const covered = await coveredTurns(root);
    expect(new Set(covered).size).toBe(covered.length);
    // Whatever the last kill left (a lock, a temp file), the next writer proceeds at once and sweeps it.
    const state = await getSynthesisState(ctx, PROJECT);
    const next = state.turns.find((t) => t.state === "uncovered")!;
    const started = Date.now();
    const item = { work_item_ref: state.next_work_item_ref, kind: "no_material_work_item", title: "t", covered_turns: [{ session_ref: next.session_ref, turn_ref: next.turn_ref }], confidence: "low" };
    expect(await writeWorkItem(ctx, { project_key: PROJECT, work_item: item })).toMatchObject({ status: "appended" });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect((await fs.readdir(path.join(root, "projects", PROJECT))).sort()).toEqual(["evidence", "project-synthesis.json", "project.json", "sessions", "sessions.index.jsonl"]);
  });
});
