import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it, vi } from "vitest";

import { chainForTurn } from "@/lib/evidence/__fixtures__/chains";
import { withFileLock } from "@/lib/fs/file-lock";
import { evidenceCardPath, projectDir } from "@/lib/fs/workspace-layout";
import { LedgerIndex } from "@/lib/ledger/ledger-index";
import { ledgerPaths } from "@/lib/ledger/paths";
import type { StartedEntry } from "@/lib/ledger/schema";
import { verifyLedger } from "@/lib/ledger/verify";
import { buildTestWorkspace, TEST_PROJECT_KEY, userLines } from "@/lib/testing/workspace-builder";

/*
 * Issue 35 item 2: a call is `crashed` only when its own OS process is gone. Next loads lib/ once
 * per bundle layer (server actions, route handlers, instrumentation), so one dashboard process
 * runs several copies of the ledger's modules; each copy here is a fresh module graph
 * (vi.resetModules), as in the server. The calls are held in flight on the card's write lock
 * (taken by the test), so every door starting meanwhile sees them open: deterministic, never a
 * race against the clock. Time limits are bounds for a loaded runner, never measures of speed.
 */

const TSX = path.resolve("node_modules/tsx/dist/cli.mjs");
const CLI = path.resolve("server/cli/main.ts");
const SESSION = "S0001";
const TURNS = Array.from({ length: 12 }, (_, k) => ({ turn_ref: `T${String(k + 1).padStart(4, "0")}`, turn_start_line: k * 5 + 1, turn_end_line: k * 5 + 5 }));

let root = "";
let cardPath = "";

/** A fresh workspace for one test: one session of 12 five-line turns, `root` and `cardPath` set to it. */
async function freshWorkspace(): Promise<void> {
  root = await fs.realpath(await buildTestWorkspace([{ ref: SESSION, content: userLines(60), turns: TURNS }]));
  cardPath = evidenceCardPath(projectDir(root, TEST_PROJECT_KEY), SESSION);
  process.env.CASEFILE_WORKSPACE = root;
}

const write = (k: number) => ({ project_key: TEST_PROJECT_KEY, session_ref: SESSION, evidence_chain: chainForTurn(TURNS[k]!) });

/** `casefile tool <name> '<json>'` in its own process (door cli); resolves with its exit code and output. */
function cli(tool: string, input: object): { child: ChildProcess; done: Promise<{ code: number | null; out: string; err: string }> } {
  const child = spawn(process.execPath, [TSX, CLI, "tool", tool, JSON.stringify(input), "--workspace", root], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  return { child, done: new Promise((resolve) => child.on("close", (code) => resolve({ code, out, err }))) };
}

/** The ledger as a fresh index (never a door's cached one). */
async function ledgerNow(): Promise<LedgerIndex> {
  const index = new LedgerIndex(ledgerPaths(root));
  await index.refresh();
  return index;
}

/** Started entries without a finished one, as the ledger holds them now. */
async function openStarts(): Promise<StartedEntry[]> {
  return [...(await ledgerNow()).receipts.values()].filter((r) => r.started && !r.finished).map((r) => r.started!);
}

/** Polls until `check` holds; throws naming `what` after `ms`. */
async function until(check: () => Promise<boolean>, what: string, ms = 120_000): Promise<void> {
  for (const deadline = Date.now() + ms; !(await check()); await new Promise((r) => setTimeout(r, 5))) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
  }
}

/** Every finished entry written with result crashed, duplicates included (the index keeps only a receipt's first). */
async function crashedFinishes(): Promise<string[]> {
  return (await ledgerNow()).entries.flatMap(({ entry }) => (entry.kind === "tool_call_finished" && entry.result === "crashed" ? [entry.receipt_id] : []));
}

/** A fresh copy of the server's modules, as Next's next bundle layer loads them. */
async function nextLayer<T>(load: () => Promise<T>): Promise<T> {
  vi.resetModules();
  return load();
}

describe("live calls are never reconciled as crashed (issue 35)", () => {
  it("four doors write at once while doors start in this process and in another: no crashed finish, verify intact", { timeout: 300_000 }, async () => {
    await freshWorkspace();
    // Each door from its own copy of lib/ (its own module-level state), as in the dashboard process.
    const actions = await nextLayer(() => import("@/server/actions/evidence"));
    const http = await nextLayer(() => import("@/server/http/tools"));
    const mcpLayer = await nextLayer(async () => ({ server: await import("@/server/mcp/server"), context: await import("@/lib/context") }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcpLayer.server.createMcpServer(mcpLayer.context.createCoreContext(root)).connect(serverSide);
    const mcp = new Client({ name: "live-calls-test", version: "1" });
    await mcp.connect(clientSide);
    const viaHttp = async (tool: string, input: object) => {
      const response = await http.callToolHandler(new Request(`http://127.0.0.1/api/tools/${tool}`, { method: "POST", body: JSON.stringify(input) }), { params: Promise.resolve({ tool }) });
      return { status: response.status, body: JSON.parse(await response.text()) as Record<string, unknown> };
    };

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const holding = withFileLock(cardPath, async () => {
      locked();
      await held;
    });
    await lockTaken;
    try {
      // The CLI's write (another process) starts first and waits on the card's lock.
      const cliWrite = cli("write_evidence", write(11));
      await until(async () => (await openStarts()).some((s) => s.door === "cli"), "the CLI write in flight");
      // Then 8 dashboard writes (server actions), one MCP and one HTTP write, all at once.
      const calls = [
        ...[0, 1, 2, 3, 4, 5, 6, 7].map((k) => actions.createEvidenceChainAction(write(k))),
        mcp.callTool({ name: "write_evidence", arguments: write(8) }),
        viaHttp("write_evidence", write(9)),
      ];
      await until(async () => (await openStarts()).length === 11, "11 writes in flight");

      // Doors starting meanwhile: the dashboard's start-up and a route's first call (each its own
      // copy of lib/), and a `casefile` command in another live process.
      const start = await nextLayer(() => import("@/server/audit-start"));
      await start.reconcileLedgerOnStart();
      const laterRoute = await nextLayer(() => import("@/server/http/tools"));
      const listed = await laterRoute.callToolHandler(new Request("http://127.0.0.1/api/tools/list_projects", { method: "POST", body: "{}" }), { params: Promise.resolve({ tool: "list_projects" }) });
      expect(listed.status).toBe(200);
      const otherProcess = await cli("list_projects", {}).done;
      expect(otherProcess).toMatchObject({ code: 0, err: "" });
      expect(await crashedFinishes()).toEqual([]);
      expect(await openStarts()).toHaveLength(11);

      release();
      await holding;
      const results = await Promise.all(calls);
      const actionResults = results.slice(0, 8) as Awaited<ReturnType<typeof actions.createEvidenceChainAction>>[];
      for (const r of actionResults) expect(r).toMatchObject({ ok: true, data: { status: "appended" } });
      expect(results[8]).toMatchObject({ isError: false });
      expect(results[9]).toMatchObject({ status: 200, body: { status: "appended" } });
      const cliDone = await cliWrite.done;
      expect(cliDone).toMatchObject({ code: 0, err: "" });
      expect(JSON.parse(cliDone.out)).toMatchObject({ status: "appended" });
    } finally {
      release();
      await holding;
    }

    expect(await crashedFinishes()).toEqual([]);
    const report = await verifyLedger(ledgerPaths(root));
    expect(report.findings).toEqual([]);
    expect(report).toMatchObject({ ok: true, in_flight: 0, chain: { state: "intact" } });
    // 11 writes and 2 list_projects, each started and finished once.
    expect(report).toMatchObject({ receipts: 13, entries: 26 });
    await mcp.close();
  });

  it("a call whose process was SIGKILLed mid-call is still reconciled as crashed by the next door to start", { timeout: 300_000 }, async () => {
    await freshWorkspace();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const holding = withFileLock(cardPath, async () => {
      locked();
      await held;
    });
    await lockTaken;
    let victim: StartedEntry | undefined;
    try {
      const killed = cli("write_evidence", write(10));
      await until(async () => (victim = (await openStarts()).find((s) => s.door === "cli")) !== undefined, "the CLI write in flight");
      // The writer is the process that wrote the started entry (tsx runs the CLI in a child).
      process.kill(victim!.pid, "SIGKILL");
      await killed.done;
    } finally {
      release();
      await holding;
    }
    const before = await verifyLedger(ledgerPaths(root));
    expect(before.findings).toEqual([expect.objectContaining({ kind: "orphan", receipt_id: victim!.receipt_id, message: expect.stringContaining("finishes it as crashed") })]);
    // The next door to start: a `casefile` command (this process opened the ledger already).
    expect(await cli("list_projects", {}).done).toMatchObject({ code: 0, err: "" });
    expect(await crashedFinishes()).toEqual([victim!.receipt_id]);
    expect((await ledgerNow()).receipts.get(victim!.receipt_id)!.finished).toMatchObject({ result: "crashed", duration_ms: 0 });
    expect(await verifyLedger(ledgerPaths(root))).toMatchObject({ ok: true, findings: [], in_flight: 0 });
  });
});
