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
 * acts on their printed progress markers, never on wall-clock guesses.
 */

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
  it("4 processes × 25 tool calls at once → 200 entries, all paired, no torn line", { timeout: 180_000 }, async () => {
    const root = await corpusWorkspace();
    const { projectKey, sessions } = await corpusSessions(root);
    const runs = [0, 1, 2, 3].map((k) => start(["calls", root, projectKey, sessions[k % sessions.length]!.ref, "25"]));
    for (const r of runs) await untilOutput(r, "ready", 60_000);
    for (const r of runs) r.child.stdin!.end("go\n");
    const codes = await Promise.all(runs.map((r) => r.exit));
    expect(runs.map((r) => r.stderr())).toEqual(["", "", "", ""]);
    expect(codes).toEqual([0, 0, 0, 0]);
    const index = await freshIndex(root);
    expect(index.entries).toHaveLength(200);
    expect(index.problems).toEqual([]);
    expect(index.tornTail).toBeNull();
    expect([...index.receipts.values()].every((r) => r.started && r.finished?.result === "success")).toBe(true);
    expect(new Set([...index.receipts.values()].map((r) => r.started!.pid)).size).toBe(4);
    expect((await verifyLedger(ledgerPaths(root))).ok).toBe(true);
  });

  it("100 CLI write calls killed with SIGKILL while they run → the next start finishes every orphan as crashed, verify exits 0, every card parses", { timeout: 300_000 }, async () => {
    const root = await corpusWorkspace();
    const { projectKey, sessions } = await corpusSessions(root);
    const ref = sessions.find((s) => s.turns.some((t) => t.turn_end_line - t.turn_start_line >= 2))!.ref;
    const killedPids = new Set<number>();
    const watch = new LedgerIndex(ledgerPaths(root));
    // In flight per the ledger itself: this worker has a started entry without a finish.
    const inFlight = async (pid: number) => {
      await watch.refresh();
      return [...watch.receipts.values()].some((r) => r.started?.pid === pid && !r.finished);
    };
    // Workers load ahead of their round (node startup dominates); "go" starts the write loop.
    // A loading worker is a door starting up: it reconciles what earlier kills left behind.
    const pending = Array.from({ length: 3 }, () => start(["write", root, projectKey, ref]));
    for (let round = 0; round < 100; round += 1) {
      const w = pending.shift()!;
      pending.push(start(["write", root, projectKey, ref]));
      await untilOutput(w, "ready", 60_000);
      w.child.stdin!.end("go\n");
      await untilOutput(w, "s", 60_000);
      while (!(await inFlight(w.child.pid!))) await new Promise((r) => setTimeout(r, 1));
      for (let spins = Math.floor(Math.random() * 6); spins > 0; spins -= 1) await new Promise((r) => setImmediate(r));
      killedPids.add(w.child.pid!);
      w.child.kill("SIGKILL");
      await w.exit;
      expect(w.stderr()).toBe("");
    }
    for (const w of pending) {
      w.child.kill("SIGKILL");
      await w.exit;
    }

    const door = start(["start", root]);
    await untilOutput(door, "started", 60_000);
    await door.exit;
    const after = await freshIndex(root);
    expect(after.problems).toEqual([]);
    expect(after.tornTail).toBeNull();
    for (const r of after.receipts.values()) {
      expect(r.started).toBeDefined();
      expect(r.finished).toBeDefined();
    }
    const crashed = [...after.receipts.values()].filter((r) => r.finished!.result === "crashed");
    expect(crashed.length).toBeGreaterThan(0);
    expect(crashed.every((r) => killedPids.has(r.started!.pid))).toBe(true);

    const cli = await run(process.execPath, [path.resolve("node_modules/tsx/dist/cli.mjs"), path.resolve("server/cli/main.ts"), "audit", "verify", "--json", "--workspace", root]);
    expect(JSON.parse(cli.stdout)).toMatchObject({ ok: true, findings: [] });

    const evidenceDir = path.join(root, "projects", projectKey, "evidence");
    const cards = (await fs.readdir(evidenceDir)).filter((n) => n.endsWith(".json"));
    expect(cards.length).toBeGreaterThan(0);
    for (const card of cards) expect(() => JSON.parse(readFileSync(path.join(evidenceDir, card), "utf8"))).not.toThrow();
  });
});
