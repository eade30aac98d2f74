/** The audit ledger under concurrent and killed writers. */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";

import { beforeAll, describe, expect, it } from "vitest";

import { corpusSessions, corpusWorkspace } from "@/lib/ledger/__fixtures__/corpus-workspace";
import { LedgerIndex } from "@/lib/ledger/ledger-index";
import { ledgerPaths } from "@/lib/ledger/paths";
import { verifyLedger } from "@/lib/ledger/verify";
import { bundleWorker, startWorker, untilOutput, type WorkerRun } from "@/lib/testing/bundle-worker";
import { HAS_SHARED, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

/*
 * The ledger under concurrent writers and crashes (issue 8, "Done when"). Workers are separate
 * processes calling tools through the registry with door cli, as `casefile tool` does; the test
 * acts on their printed progress markers and on the ledger itself, never on wall-clock guesses.
 * Time limits are generous bounds for a slow, loaded CI runner, never measures of speed.
 */

/** Bounds for a loaded runner: a worker's start-up, and one write call's progress. */
const STARTUP_MS = 120_000;
const PROGRESS_MS = 120_000;

/** The process state letter of `pid` from /proc (`T`: stopped), or null where /proc is absent. */
function procState(pid: number): string | null {
  try {
    return /^\d+ \(.*\) (\S)/s.exec(readFileSync(`/proc/${pid}/stat`, "utf8"))?.[1] ?? null;
  } catch {
    return null;
  }
}

/** Polls `check` every millisecond until it holds; throws naming `what` when `bail` says the wait is hopeless or after `ms`. */
async function until(check: () => Promise<boolean> | boolean, what: string, bail: () => string | null = () => null, ms = PROGRESS_MS): Promise<void> {
  for (const deadline = Date.now() + ms; !(await check()); await new Promise((r) => setTimeout(r, 1))) {
    const reason = bail();
    if (reason) throw new Error(`${what}: ${reason}`);
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
  }
}

const run = promisify(execFile);
let worker = "";
beforeAll(async () => {
  if (HAS_SHARED) worker = await bundleWorker("lib/ledger/__fixtures__/ledger-worker.ts");
}, 120_000);

const start = (args: string[]): WorkerRun => startWorker(worker, args);

async function freshIndex(root: string): Promise<LedgerIndex> {
  const index = new LedgerIndex(ledgerPaths(root));
  await index.refresh();
  return index;
}

describe.skipIf(!HAS_SHARED)(`audit ledger across processes${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  it("4 processes × 50 tool calls at once → 400 entries, all paired, one unbroken hash chain; one byte changed anywhere in any entry → verify names its line", { timeout: 600_000 }, async () => {
    const root = await corpusWorkspace();
    const { projectKey, sessions } = await corpusSessions(root);
    const runs = [0, 1, 2, 3].map((k) => start(["calls", root, projectKey, sessions[k % sessions.length]!.ref, "50"]));
    for (const r of runs) await untilOutput(r, "ready", STARTUP_MS);
    for (const r of runs) r.child.stdin!.end("go\n");
    const codes = await Promise.all(runs.map((r) => r.exit));
    expect(runs.map((r) => r.stderr())).toEqual(["", "", "", ""]);
    expect(codes).toEqual([0, 0, 0, 0]);
    const index = await freshIndex(root);
    expect(index.entries).toHaveLength(400);
    expect(index.problems).toEqual([]);
    expect(index.tornTail).toBeNull();
    expect([...index.receipts.values()].every((r) => r.started && r.finished?.result === "success")).toBe(true);
    expect(new Set([...index.receipts.values()].map((r) => r.started!.pid)).size).toBe(4);
    const paths = ledgerPaths(root);
    const report = await verifyLedger(paths);
    expect(report).toMatchObject({ ok: true, chain: { state: "intact", chained: 400, first_break: null } });

    // One byte changed at a random place of a random entry (never its newline): verify names that line.
    const original = await fs.readFile(paths.active);
    const starts = [0];
    for (let i = 0; i < original.length - 1; i++) if (original[i] === 0x0a) starts.push(i + 1);
    for (let trial = 0; trial < 40; trial++) {
      const line = Math.floor(Math.random() * starts.length);
      const end = (starts[line + 1] ?? original.length) - 1;
      const offset = starts[line]! + Math.floor(Math.random() * (end - starts[line]!));
      const bytes = Buffer.from(original);
      bytes[offset] = bytes[offset] === 0x41 ? 0x42 : 0x41;
      await fs.writeFile(paths.active, bytes);
      const broken = await verifyLedger(paths);
      expect(broken.ok).toBe(false);
      expect(broken.chain.first_break, `byte ${offset} (line ${line + 1})`).toMatchObject({ kind: "edited", file: "tool-traces.jsonl", line: line + 1 });
    }
    await fs.writeFile(paths.active, original);
    expect((await verifyLedger(paths)).ok).toBe(true);
  });

  it("100 CLI write calls killed with SIGKILL while they run → the next start finishes every orphan as crashed, verify exits 0, every card parses", { timeout: 900_000 }, async () => {
    const root = await corpusWorkspace();
    const { projectKey, sessions } = await corpusSessions(root);
    const ref = sessions.find((s) => s.turns.some((t) => t.turn_end_line - t.turn_start_line >= 2))!.ref;
    const killedPids = new Set<number>();
    // Receipts proven in flight at the kill: the worker was stopped (SIGSTOP, seen as state T in
    // /proc) with a started entry and no finish, so nothing of that call can be written after.
    const caught = new Set<string>();
    const watch = new LedgerIndex(ledgerPaths(root));
    // In flight per the ledger itself: this worker's started entries without a finish.
    const openReceipts = async (pid: number) => {
      await watch.refresh();
      return [...watch.receipts.values()].filter((r) => r.started?.pid === pid && !r.finished).map((r) => r.started!.receipt_id);
    };
    const exited = (w: WorkerRun) => () => (w.child.exitCode !== null || w.child.signalCode !== null ? `the worker exited: ${w.stderr()}` : null);
    // Workers load ahead of their round (node startup dominates); "go" starts the write loop.
    // A loading worker is a door starting up: it reconciles what earlier kills left behind.
    const pending = Array.from({ length: 3 }, () => start(["write", root, projectKey, ref]));
    for (let round = 0; round < 100; round += 1) {
      const w = pending.shift()!;
      const pid = w.child.pid!;
      pending.push(start(["write", root, projectKey, ref]));
      await untilOutput(w, "ready", STARTUP_MS);
      w.child.stdin!.end("go\n");
      await untilOutput(w, "s", PROGRESS_MS);
      // Every fourth worker finishes one write first, so cards exist however slow the machine
      // (on a loaded CI runner every kill could otherwise land inside the first write).
      if (round % 4 === 0) await untilOutput(w, "w", PROGRESS_MS);
      for (;;) {
        await until(async () => (await openReceipts(pid)).length > 0, `round ${round}: a call in flight`, exited(w));
        for (let spins = Math.floor(Math.random() * 6); spins > 0; spins -= 1) await new Promise((r) => setImmediate(r));
        if (procState(pid) === null) break; // no /proc: kill at this random moment, unconfirmed
        w.child.kill("SIGSTOP");
        await until(() => procState(pid) === "T", `round ${round}: the worker stopped`, exited(w));
        const open = await openReceipts(pid);
        if (open.length > 0) {
          for (const id of open) caught.add(id);
          break;
        }
        w.child.kill("SIGCONT"); // the call finished before the stop: catch the next one
      }
      killedPids.add(pid);
      w.child.kill("SIGKILL");
      await w.closed;
      expect(w.stderr()).toBe("");
    }
    for (const w of pending) {
      w.child.kill("SIGKILL");
      await w.closed;
    }

    const door = start(["start", root]);
    await untilOutput(door, "started", STARTUP_MS);
    expect(await door.exit).toBe(0);
    const after = await freshIndex(root);
    expect(after.problems).toEqual([]);
    expect(after.tornTail).toBeNull();
    for (const r of after.receipts.values()) {
      expect(r.started).toBeDefined();
      expect(r.finished).toBeDefined();
    }
    const crashed = [...after.receipts.values()].filter((r) => r.finished!.result === "crashed");
    expect(crashed.every((r) => killedPids.has(r.started!.pid))).toBe(true);
    // Every call caught in flight was finished as crashed by reconciliation (none where /proc is absent).
    for (const id of caught) expect(after.receipts.get(id)!.finished).toMatchObject({ result: "crashed", duration_ms: 0 });
    if (procState(process.pid) !== null) expect(caught.size).toBeGreaterThanOrEqual(100);

    const cli = await run(process.execPath, [path.resolve("node_modules/tsx/dist/cli.mjs"), path.resolve("server/cli/main.ts"), "audit", "verify", "--json", "--workspace", root]);
    expect(JSON.parse(cli.stdout)).toMatchObject({ ok: true, findings: [] });

    const evidenceDir = path.join(root, "projects", projectKey, "evidence");
    const cards = (await fs.readdir(evidenceDir)).filter((n) => n.endsWith(".json"));
    expect(cards.length).toBeGreaterThan(0);
    for (const card of cards) expect(() => JSON.parse(readFileSync(path.join(evidenceDir, card), "utf8"))).not.toThrow();
  });
});
