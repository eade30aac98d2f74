/**
 * Load and fault on the audit ledger and the evidence cards (issue 35, "Done when"):
 * `npx tsx bench/load-fault.bench.ts`. Needs a production build (`npx next build`).
 *
 * Each round, on one workspace prepared from the Claude Code corpus (../shared/corpus/claude-code
 * plus copies of it with fresh session ids, so there are enough turns: a turn holds one chain):
 *  1. load: 4 doors × PER_DOOR concurrent `write_evidence` writes, all started at once while a
 *     `casefile prepare` of the corpus (adding copies) runs on the same workspace;
 *  2. fault: KILLS SIGKILLs of the dashboard server while every door keeps writing (the server is
 *     restarted each time; an HTTP or server-action write refused while it is down waits for it
 *     and is sent again, one cut mid-request is not, as its outcome is unknown);
 *  3. checks: `casefile audit verify` exits 0, every acknowledged write is on its card
 *     (get_evidence_card), every call in flight at a SIGKILL is finished `crashed` on the ledger,
 *     every acknowledged write has its `success` receipt, and no call is left open.
 *
 * Doors: MCP (`casefile mcp` on stdio, one client), HTTP (`POST /api/tools/write_evidence`), the
 * dashboard's server action (`createEvidenceChainAction`, sent as the browser sends it: a POST of
 * the session page with Next's `Next-Action` header, its id read from the build's server-reference
 * manifest; ledger tool `create_evidence_chain`, door `ui`) and the CLI (`casefile tool
 * write_evidence`, one process per write). The server is started as `casefile serve` starts it
 * (serverCommand, dashboardServerEnv) in its own process group, which the SIGKILL ends.
 *
 * Prints per door and phase: writes attempted / acknowledged / rejected / failed, p50 and p95
 * latency of the acknowledged ones; the SIGKILLs (restart time, calls in flight); the checks; the
 * wall time. Exits 1 when an invariant fails. Env: BENCH_PER_DOOR (25), BENCH_KILLS (10),
 * BENCH_KILL_WRITES_PER_DOOR (cap per door in the fault phase, 60), BENCH_ROUNDS (1), BENCH_PORT
 * (3297), BENCH_DIR (/tmp/casefile-load-fault), BENCH_KEEP=1 keeps the workspace. Loopback only;
 * every loop is bounded by a count, every call by a timeout.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import fs from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

import { metadataPath } from "@/lib/fs/workspace-layout";
import { readBlob } from "@/lib/ledger/blobs";
import { LedgerIndex } from "@/lib/ledger/ledger-index";
import { ledgerPaths } from "@/lib/ledger/paths";
import type { StartedEntry } from "@/lib/ledger/schema";
import { dashboardServerEnv, serverCommand } from "@/server/cli/serve-command";

const REPO = path.resolve(fileURLToPath(new URL("../", import.meta.url)));
const CORPUS = path.resolve(REPO, "../shared/corpus/claude-code");
const TSX = path.join(REPO, "node_modules/tsx/dist/cli.mjs");
const MAIN = path.join(REPO, "server/cli/main.ts");
const PER_DOOR = Number(process.env.BENCH_PER_DOOR ?? 25);
const KILLS = Number(process.env.BENCH_KILLS ?? 10);
const KILL_WRITES_PER_DOOR = Number(process.env.BENCH_KILL_WRITES_PER_DOOR ?? 60);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const PORT = Number(process.env.BENCH_PORT ?? 3297);
const DIR = process.env.BENCH_DIR ?? "/tmp/casefile-load-fault";
const WORKSPACE = path.join(DIR, "workspace");
const SOURCES = path.join(DIR, "sources");
const BASE = `http://127.0.0.1:${PORT}`;
/** Copies of the corpus prepared before the first round (the corpus holds ~100 turns), and added by each round's concurrent prepares. */
const INITIAL_COPIES = 3;
const COPIES_PER_ROUND = 4;
const CALL_TIMEOUT_MS = 120_000;
const DEADLINE = Date.now() + 20 * 60_000;

const DOORS = ["mcp", "http", "ui", "cli"] as const;
type Door = (typeof DOORS)[number];
type Phase = "load" | "fault";
/** One indexed turn a write targets. */
type Target = { project_key: string; session_ref: string; turn_ref: string; start: number; end: number };
/** One write as its caller saw it. */
type Write = {
  claim: string;
  door: Door;
  phase: Phase;
  round: number;
  target: Target;
  startedAt: number;
  endedAt: number;
  outcome: "ack" | "rejected" | "failed";
  detail: string;
  /** Server-bound write cut by a SIGKILL mid-request (its outcome unknown to the caller). */
  cut: boolean;
  attempts: number;
};
type CallOutcome = { outcome: Write["outcome"]; detail: string; cut?: boolean; refused?: boolean };
/** One SIGKILL: the server's pid, its calls open on the ledger when it died, the restart's time. */
type Kill = { round: number; pid: number; openAtKill: StartedEntry[]; upMs: number; restartMs: number };
/** A restarted server: how long from Ready until its first write finished on the ledger (routes load on first use). */
type Restart = { pid: number; firstWriteMs: number };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ms = (v: number) => (v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${v.toFixed(0)} ms`);
const WRITE_TOOLS = ["write_evidence", "create_evidence_chain"];
const CLAIM_RE = /LF-[a-z0-9]+-r\d+-(?:load|fault)-(?:mcp|http|ui|cli)-\d+/;
const RUN_ID = Date.now().toString(36);

function checkDeadline(): void {
  if (Date.now() > DEADLINE) throw new Error("load-fault bench: over its 20 min bound");
}

// ---------------------------------------------------------------------------------------------
// Sources: the corpus and copies of it with fresh session ids (the session id is the file name)

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** Copies the corpus's transcripts (and their subagent and tool-result files) to copy-<k>, every UUID and non-UUID session file name made unique to the copy. */
async function writeCopy(k: number): Promise<string> {
  const out = path.join(SOURCES, `copy-${k}`);
  const remap = (s: string) => s.replace(UUID, (u) => `${k.toString(16).padStart(4, "0")}${u.slice(4)}`);
  const walk = async (dir: string): Promise<void> => {
    for (const e of await fs.readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) {
        await walk(full);
        continue;
      }
      const isTranscript = e.name.endsWith(".jsonl");
      if (!isTranscript && !full.includes(`${path.sep}tool-results${path.sep}`)) continue; // chat exports: no session of their own
      let rel = remap(path.relative(CORPUS, full));
      if (isTranscript && !/[0-9a-f]{8}-[0-9a-f]{4}-/.test(e.name)) rel = path.join(path.dirname(rel), `c${k}-${path.basename(rel)}`);
      const target = path.join(out, rel);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.writeFile(target, isTranscript ? remap(await fs.readFile(full, "utf8")) : await fs.readFile(full));
    }
  };
  await walk(CORPUS);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Processes: CLI commands, the MCP client, the dashboard server

const children = new Set<ChildProcess>();

/** `casefile <args>` in its own process; resolves with its exit code and output (killed after `timeoutMs`). */
function casefile(args: string[], timeoutMs = CALL_TIMEOUT_MS): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [TSX, "--tsconfig", path.join(REPO, "tsconfig.json"), MAIN, ...args], { cwd: REPO, stdio: ["ignore", "pipe", "pipe"] });
  children.add(child);
  let out = "";
  let err = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  return new Promise((resolve) =>
    child.on("close", (code) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({ code, out, err });
    }),
  );
}

/** The dashboard server as `casefile serve` runs it, in its own process group; restartable. */
class DashboardServer {
  child: ChildProcess | null = null;
  /** Resolves while the server is up; replaced by a pending promise while it is down. */
  up: Promise<void> = Promise.resolve();
  private markUp: () => void = () => undefined;
  log = "";
  /** When each server process printed Ready (epoch ms, the ledger's clock), by pid. */
  readonly readyAt = new Map<number, number>();

  async start(): Promise<number> {
    const t0 = performance.now();
    const [script, args] = await serverCommand(PORT);
    const env = { ...dashboardServerEnv(process.env, WORKSPACE), CASEFILE_PORT: String(PORT), NODE_ENV: "production" as const };
    const child = spawn(process.execPath, [script, ...args], { cwd: REPO, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    this.child = child;
    child.stderr!.on("data", (d: Buffer) => (this.log = (this.log + d.toString()).slice(-20_000)));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the dashboard server was not ready within 60 s")), 60_000);
      child.stdout!.on("data", (d: Buffer) => {
        if (d.toString().includes("Ready")) {
          this.readyAt.set(child.pid!, Date.now());
          clearTimeout(timer);
          resolve();
        }
      });
      child.once("exit", (code) => reject(new Error(`the dashboard server exited with ${code}: ${this.log.slice(-2000)}`)));
    });
    this.markUp();
    this.up = Promise.resolve();
    return performance.now() - t0;
  }

  /** SIGKILLs the server's process group; resolves once it is gone. */
  async kill(): Promise<number> {
    const child = this.child!;
    this.up = new Promise<void>((resolve) => (this.markUp = resolve));
    const exited = new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve())));
    process.kill(-child.pid!, "SIGKILL");
    await exited;
    this.child = null;
    return child.pid!;
  }

  /** Ends the server (SIGTERM to its group, SIGKILL after 5 s). */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    process.kill(-child.pid!, "SIGTERM");
    const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
    this.child = null;
  }
}

/** One POST over a fresh loopback connection (no pooled socket outlives a SIGKILL). */
function post(urlPath: string, headers: Record<string, string>, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: "127.0.0.1", port: PORT, path: urlPath, method: "POST", agent: false, headers: { ...headers, "content-length": Buffer.byteLength(body) }, timeout: CALL_TIMEOUT_MS }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (d: string) => (text += d));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
      response.on("error", reject);
    });
    request.on("timeout", () => request.destroy(new Error("timed out")));
    request.on("error", reject);
    request.end(body);
  });
}

/** A transport failure as the caller sees it: refused (never sent, the server is down) or cut mid-request. */
function transportFailure(error: unknown): CallOutcome {
  const code = (error as NodeJS.ErrnoException).code ?? "";
  if (code === "ECONNREFUSED") return { outcome: "failed", detail: "connection refused", refused: true };
  return { outcome: "failed", detail: `connection lost (${code || (error as Error).message})`, cut: true };
}

/** The outcome of a write whose result JSON is `body`. */
function classify(body: unknown): CallOutcome {
  const status = (body as { status?: unknown } | null)?.status;
  if (status === "appended") return { outcome: "ack", detail: "appended" };
  if (status === "invalid") return { outcome: "rejected", detail: JSON.stringify((body as { errors?: unknown }).errors).slice(0, 300) };
  return { outcome: "failed", detail: JSON.stringify(body).slice(0, 300) };
}

/** The server action id of `createEvidenceChainAction` in this build. */
function createChainActionId(): string {
  const manifest = JSON.parse(readFileSync(path.join(REPO, ".next/server/server-reference-manifest.json"), "utf8")) as { node: Record<string, { filename: string; exportedName: string }> };
  const found = Object.entries(manifest.node).find(([, v]) => v.filename === "server/actions/evidence.ts" && v.exportedName === "createEvidenceChainAction");
  if (!found) throw new Error("createEvidenceChainAction is not in .next/server/server-reference-manifest.json: rebuild (npx next build)");
  return found[0];
}

/**
 * The action's value from a React Server Components reply: rows `<id>:<json>`, row 0 naming the
 * action's result row (`"a":"$@1"`). Small results are inline JSON, which is all an append returns.
 */
function actionResult(text: string): unknown {
  const rows = new Map<string, string>();
  for (const line of text.split("\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) rows.set(line.slice(0, colon), line.slice(colon + 1));
  }
  const head = JSON.parse(rows.get("0") ?? "null") as { a?: string } | null;
  const ref = /^\$@([0-9a-f]+)$/.exec(head?.a ?? "")?.[1];
  if (ref === undefined) throw new Error(`no action result in the reply: ${text.slice(0, 200)}`);
  return JSON.parse(rows.get(ref) ?? "null");
}

// ---------------------------------------------------------------------------------------------
// Writes

/** A valid chain for `target` whose every summary carries `claim` (citations inside the turn; the outcome touches the reaction's lines). */
function chainFor(target: Target, claim: string): Record<string, unknown> {
  const { start, end } = target;
  const first = `${start}-${start}`;
  const rest = end > start ? `${start + 1}-${end}` : first;
  const last = `${end}-${end}`;
  return {
    turn_ref: target.turn_ref,
    trigger: { type: "explicit_user_message", summary: `Load-fault claim ${claim}: the request.`, quoted_messages: [], citations: [{ lines: first }] },
    agent_reactions: [{ summary: `Load-fault claim ${claim}: the agent worked.`, citations: [{ lines: rest }] }],
    outcomes: [{ category: "code_outcome", summary: `Load-fault claim ${claim}: code changed.`, citations: [{ lines: last }] }],
    observed_checks: [],
    terminal_state: { type: "material_result", summary: `Load-fault claim ${claim}: done.`, citations: [{ lines: last }] },
    materiality: "material",
  };
}

/** The doors' clients. */
class Doors {
  constructor(
    private readonly mcp: Client,
    private readonly server: DashboardServer,
    private readonly actionId: string,
  ) {}

  /** One write through `door`; a refused connection (the server is down) waits for it and is sent again, at most 5 times. */
  async write(door: Door, phase: Phase, round: number, n: number, target: Target): Promise<Write> {
    const claim = `LF-${RUN_ID}-r${round}-${phase}-${door}-${n}`;
    const input = { project_key: target.project_key, session_ref: target.session_ref, evidence_chain: chainFor(target, claim) };
    let result: CallOutcome = { outcome: "failed", detail: "not sent" };
    let attempts = 0;
    let startedAt = performance.now();
    for (; attempts < 5; ) {
      if (door === "http" || door === "ui") await this.server.up;
      attempts += 1;
      startedAt = performance.now();
      result = await this.once(door, input).catch((error: unknown) => ({ outcome: "failed" as const, detail: String(error).slice(0, 300) }));
      if (!result.refused) break;
    }
    return { claim, door, phase, round, target, startedAt, endedAt: performance.now(), outcome: result.outcome, detail: result.detail, cut: result.cut === true, attempts };
  }

  private async once(door: Door, input: { project_key: string; session_ref: string; evidence_chain: Record<string, unknown> }): Promise<CallOutcome> {
    switch (door) {
      case "mcp": {
        const res = await this.mcp.callTool({ name: "write_evidence", arguments: input }, undefined, { timeout: CALL_TIMEOUT_MS });
        const text = (res.content as { type: string; text?: string }[])[0]?.text ?? "";
        try {
          return classify(JSON.parse(text));
        } catch {
          return { outcome: "failed", detail: text.slice(0, 300) };
        }
      }
      case "http": {
        let res;
        try {
          res = await post("/api/tools/write_evidence", { "content-type": "application/json" }, JSON.stringify(input));
        } catch (error) {
          return transportFailure(error);
        }
        try {
          return { ...classify(JSON.parse(res.text)), ...(res.status !== 200 && res.status !== 422 ? { outcome: "failed" as const, detail: `HTTP ${res.status}: ${res.text.slice(0, 200)}` } : {}) };
        } catch {
          return { outcome: "failed", detail: `HTTP ${res.status}: ${res.text.slice(0, 200)}` };
        }
      }
      case "ui": {
        // As the browser sends it: the page's URL, Next's action header, the arguments as React's
        // encodeReply writes plain JSON (no string here starts with "$", which it would escape).
        const page = `/projects/${encodeURIComponent(input.project_key)}/sessions/${encodeURIComponent(input.session_ref)}`;
        let res;
        try {
          res = await post(page, { "next-action": this.actionId, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component", origin: BASE }, JSON.stringify([input]));
        } catch (error) {
          return transportFailure(error);
        }
        if (res.status !== 200) return { outcome: "failed", detail: `HTTP ${res.status}: ${res.text.slice(0, 200)}` };
        try {
          const value = actionResult(res.text) as { ok?: boolean; data?: unknown; error?: unknown };
          return value.ok ? classify(value.data) : { outcome: "failed", detail: JSON.stringify(value.error).slice(0, 300) };
        } catch (error) {
          return { outcome: "failed", detail: String(error).slice(0, 300) };
        }
      }
      case "cli": {
        const run = await casefile(["tool", "write_evidence", JSON.stringify(input), "--workspace", WORKSPACE]);
        try {
          return classify(JSON.parse(run.out));
        } catch {
          return { outcome: "failed", detail: `exit ${run.code}: ${(run.err || run.out).slice(-300)}` };
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Reads over HTTP (the server is up)

async function tool<T>(name: string, input: object): Promise<T> {
  const res = await post(`/api/tools/${name}`, { "content-type": "application/json" }, JSON.stringify(input));
  if (res.status !== 200) throw new Error(`${name}: HTTP ${res.status} ${res.text.slice(0, 300)}`);
  return JSON.parse(res.text) as T;
}

/** Every indexed turn of the workspace (list_projects, list_sessions, list_session_turns), in project, session, turn order. */
async function allTurns(): Promise<Target[]> {
  const turns: Target[] = [];
  const { projects } = await tool<{ projects: { project_key: string }[] }>("list_projects", {});
  for (const { project_key } of projects) {
    for (let offset = 0; offset < 100_000; ) {
      const page = await tool<{ sessions: { session_ref: string }[]; total: number }>("list_sessions", { project_key, limit: 500, offset });
      for (const { session_ref } of page.sessions) {
        for (let turnOffset = 0; turnOffset < 100_000; ) {
          const t = await tool<{ turns: { turn_ref: string; turn_start_line: number; turn_end_line: number }[]; total_turns: number }>("list_session_turns", { project_key, session_ref, offset: turnOffset, limit: 200 });
          for (const x of t.turns) turns.push({ project_key, session_ref, turn_ref: x.turn_ref, start: x.turn_start_line, end: x.turn_end_line });
          turnOffset += t.turns.length;
          if (t.turns.length === 0 || turnOffset >= t.total_turns) break;
        }
      }
      offset += page.sessions.length;
      if (page.sessions.length === 0 || offset >= page.total) break;
    }
  }
  return turns;
}

/** Turns not written yet, shared by every door: consecutive turns (one card) go to different doors. */
class TurnPool {
  private readonly used = new Set<string>();
  private queue: Target[] = [];
  async refill(): Promise<number> {
    this.queue = (await allTurns()).filter((t) => !this.used.has(key(t)));
    return this.queue.length;
  }
  take(): Target | undefined {
    const t = this.queue.shift();
    if (t) this.used.add(key(t));
    return t;
  }
}
const key = (t: Target) => `${t.project_key}/${t.session_ref}/${t.turn_ref}`;

// ---------------------------------------------------------------------------------------------
// Phases

/** `casefile prepare` of the corpus and `copies` on the workspace; its exit code and time window. */
async function prepare(copies: string[]): Promise<{ code: number | null; err: string; from: number; to: number }> {
  const from = performance.now();
  const run = await casefile(["prepare", "--workspace", WORKSPACE, "--claude", CORPUS, ...copies.flatMap((c) => ["--claude", c])], 300_000);
  return { code: run.code, err: run.err.slice(-1000), from, to: performance.now() };
}

/**
 * Phase 1: PER_DOOR writes per door, all started at once, as soon as a prepare holds the
 * workspace lock; prepares run one after another (each adding a copy, then none) until the
 * writes are done, at most COPIES_PER_ROUND + 2.
 */
async function loadPhase(round: number, doors: Doors, pool: TurnPool, copies: string[]): Promise<{ writes: Write[]; prepares: Awaited<ReturnType<typeof prepare>>[]; overlapping: number }> {
  const prepares: Awaited<ReturnType<typeof prepare>>[] = [];
  let writesDone = false;
  const lockFile = `${metadataPath(WORKSPACE)}.lock`;
  let lockSeen!: () => void;
  const lockSeenOnce = new Promise<void>((resolve) => (lockSeen = resolve));
  const preparing = (async () => {
    for (let run = 0; run < COPIES_PER_ROUND + 2 && (!writesDone || run < COPIES_PER_ROUND); run += 1) {
      if (run < COPIES_PER_ROUND) copies.push(await writeCopy(copies.length + 1));
      const p = prepare([...copies]);
      if (run === 0) {
        for (let i = 0; i < 3000 && !existsSync(lockFile); i += 1) await sleep(5);
        lockSeen();
      }
      const done = await p;
      prepares.push(done);
      if (done.code !== 0) break;
    }
    lockSeen();
  })();
  await lockSeenOnce;
  const targets: [Door, Target][] = [];
  for (let n = 0; n < PER_DOOR; n += 1) {
    for (const door of DOORS) {
      const t = pool.take();
      if (!t) throw new Error("the workspace has too few turns for the load phase");
      targets.push([door, t]);
    }
  }
  const writes = await Promise.all(targets.map(([door, t], i) => doors.write(door, "load", round, Math.floor(i / DOORS.length), t)));
  writesDone = true;
  await preparing;
  const overlapping = writes.filter((w) => prepares.some((p) => w.startedAt < p.to && w.endedAt > p.from)).length;
  return { writes, prepares, overlapping };
}

/**
 * Phase 2: lanes per door write one after another (server-bound and MCP lanes with a short pause,
 * at most KILL_WRITES_PER_DOOR per door) while the server is SIGKILLed KILLS times, each time as
 * soon as a call of its process is open on the ledger (every other time once it is warm), then
 * restarted at once.
 */
async function faultPhase(round: number, doors: Doors, pool: TurnPool, server: DashboardServer): Promise<{ writes: Write[]; kills: Kill[]; restarts: Restart[] }> {
  const writes: Write[] = [];
  const kills: Kill[] = [];
  const budget: Record<Door, number> = { mcp: KILL_WRITES_PER_DOOR, http: KILL_WRITES_PER_DOOR, ui: KILL_WRITES_PER_DOOR, cli: KILL_WRITES_PER_DOOR };
  const lanes: Record<Door, number> = { mcp: 2, http: 3, ui: 3, cli: 2 };
  let killing = true;
  const counter: Record<Door, number> = { mcp: 0, http: 0, ui: 0, cli: 0 };
  const lane = async (door: Door) => {
    while (killing && budget[door] > 0) {
      checkDeadline();
      const t = pool.take();
      if (!t) return;
      budget[door] -= 1;
      writes.push(await doors.write(door, "fault", round, counter[door]++, t));
      if (door !== "cli") await sleep(100 + Math.random() * 250);
    }
  };
  const writing = Promise.all(DOORS.flatMap((door) => Array.from({ length: lanes[door] }, () => lane(door))));
  // The ledger read incrementally: the server's open calls and its first finished write.
  const index = new LedgerIndex(ledgerPaths(WORKSPACE));
  let seen = 0;
  const open = new Set<string>();
  const firstWriteAt = new Map<number, number>();
  const follow = async (pid: number) => {
    await index.refresh();
    for (; seen < index.entries.length; seen += 1) {
      const { entry } = index.entries[seen]!;
      if (entry.kind === "tool_call_started") open.add(entry.receipt_id);
      else {
        open.delete(entry.receipt_id);
        const started = index.receipts.get(entry.receipt_id)?.started;
        if (started && entry.result === "success" && WRITE_TOOLS.includes(started.tool_name) && !firstWriteAt.has(started.pid)) firstWriteAt.set(started.pid, Date.parse(entry.timestamp));
      }
    }
    return [...open].some((id) => index.receipts.get(id)?.started?.pid === pid);
  };
  for (let k = 0; k < KILLS; k += 1) {
    const pid = server.child!.pid!;
    const upFrom = performance.now();
    // Every other kill hits a warm server: once its first write finished (a restarted server
    // loads its routes on the first requests) and 200-700 ms more; the others hit its first calls.
    // Then the kill, as soon as a call of the server is open on the ledger (at most 1.5 s later).
    if (k % 2 === 0) {
      for (let i = 0; i < 2500 && !firstWriteAt.has(pid); i += 1) {
        await follow(pid);
        await sleep(2);
      }
      await sleep(200 + Math.random() * 500);
    }
    for (let i = 0; i < 750 && !(await follow(pid)); i += 1) await sleep(2);
    const upMs = performance.now() - upFrom;
    await server.kill();
    const after = new LedgerIndex(ledgerPaths(WORKSPACE));
    await after.refresh();
    const openAtKill = [...after.receipts.values()].filter((r) => r.started && !r.finished && r.started.pid === pid).map((r) => r.started!);
    kills.push({ round, pid, openAtKill, upMs, restartMs: await server.start() });
  }
  // The last restart's first write, for the same figure.
  for (let i = 0; i < 2500 && !firstWriteAt.has(server.child!.pid!); i += 1) {
    await follow(server.child!.pid!);
    await sleep(2);
  }
  const restarts = kills.map((_, k) => (k + 1 < kills.length ? kills[k + 1]!.pid : server.child!.pid!)).map((pid) => ({ pid, firstWriteMs: (firstWriteAt.get(pid) ?? NaN) - server.readyAt.get(pid)! }));
  await sleep(500);
  killing = false;
  await writing;
  return { writes, kills, restarts };
}

// ---------------------------------------------------------------------------------------------
// Checks

type LedgerCall = { started: StartedEntry; result: string | null };

/** The write calls on the ledger by claim (read from each started entry's input blob). */
async function ledgerCallsByClaim(): Promise<{ byClaim: Map<string, LedgerCall[]>; results: Map<string, string | null>; open: StartedEntry[]; crashed: number }> {
  const paths = ledgerPaths(WORKSPACE);
  const index = new LedgerIndex(paths);
  await index.refresh();
  const byClaim = new Map<string, LedgerCall[]>();
  const results = new Map<string, string | null>();
  const open: StartedEntry[] = [];
  let crashed = 0;
  for (const [id, r] of index.receipts) {
    results.set(id, r.finished?.result ?? null);
    if (r.finished?.result === "crashed") crashed += 1;
    if (r.started && !r.finished) open.push(r.started);
    if (!r.started || !WRITE_TOOLS.includes(r.started.tool_name)) continue;
    const blob = await readBlob(paths, r.started.input_hash);
    const claim = blob.state === "present" ? CLAIM_RE.exec(JSON.stringify(blob.value))?.[0] : undefined;
    if (!claim) continue;
    byClaim.set(claim, [...(byClaim.get(claim) ?? []), { started: r.started, result: r.finished?.result ?? null }]);
  }
  return { byClaim, results, open, crashed };
}

/** The chain text on disk per `project/session/turn` (get_evidence_card over HTTP), for the sessions `writes` touched. */
async function chainsOnDisk(writes: Write[]): Promise<Map<string, string>> {
  const onDisk = new Map<string, string>();
  const sessions = new Map(writes.map((w) => [`${w.target.project_key}/${w.target.session_ref}`, w.target]));
  for (const t of sessions.values()) {
    const view = await tool<{ card: { evidence_chains?: { turn_ref?: string }[] } | null }>("get_evidence_card", { project_key: t.project_key, session_ref: t.session_ref });
    for (const chain of view.card?.evidence_chains ?? []) onDisk.set(`${t.project_key}/${t.session_ref}/${chain.turn_ref}`, JSON.stringify(chain));
  }
  return onDisk;
}

const pct = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

function printWrites(title: string, writes: Write[]): void {
  console.log(`\n${title}`);
  console.log(`${"door".padEnd(6)} ${"attempted".padStart(9)} ${"acked".padStart(6)} ${"rejected".padStart(8)} ${"failed".padStart(7)} ${"cut".padStart(4)} ${"p50".padStart(8)} ${"p95".padStart(8)}`);
  for (const door of DOORS) {
    const w = writes.filter((x) => x.door === door);
    const acked = w.filter((x) => x.outcome === "ack");
    const lat = acked.map((x) => x.endedAt - x.startedAt);
    console.log(
      `${door.padEnd(6)} ${String(w.length).padStart(9)} ${String(acked.length).padStart(6)} ${String(w.filter((x) => x.outcome === "rejected").length).padStart(8)} ${String(w.filter((x) => x.outcome === "failed").length).padStart(7)} ${String(w.filter((x) => x.cut).length).padStart(4)} ${ms(pct(lat, 50)).padStart(8)} ${ms(pct(lat, 95)).padStart(8)}`,
    );
  }
}

/** `casefile audit verify --json` on the workspace: prints its verdict, adds a failure unless it exits 0 with nothing in flight. */
async function auditVerify(when: string, failures: string[]): Promise<void> {
  const verify = await casefile(["audit", "verify", "--workspace", WORKSPACE, "--json"]);
  let report: { ok?: boolean; entries?: number; receipts?: number; in_flight?: number; chain?: { state?: string }; findings?: unknown[] } = {};
  try {
    report = JSON.parse(verify.out) as typeof report;
  } catch {
    /* reported below with the raw output */
  }
  console.log(`\ncasefile audit verify ${when}: exit ${verify.code}, chain ${report.chain?.state}, ${report.entries} entries, ${report.receipts} receipts, in flight ${report.in_flight}, findings ${report.findings?.length}`);
  if (verify.code !== 0 || report.in_flight !== 0) failures.push(`audit verify ${when}: exit ${verify.code}, in flight ${report.in_flight}: ${(verify.out || verify.err).slice(0, 1500)}`);
}

async function main(): Promise<number> {
  if (!existsSync(CORPUS)) throw new Error(`needs the corpus at ${CORPUS}`);
  if (!existsSync(path.join(REPO, ".next", "BUILD_ID"))) throw new Error("needs a production build: npx next build");
  const t0 = performance.now();
  await fs.rm(DIR, { recursive: true, force: true });
  await fs.mkdir(SOURCES, { recursive: true });
  const copies: string[] = [];
  for (let k = 1; k <= INITIAL_COPIES; k += 1) copies.push(await writeCopy(k));
  const first = await prepare(copies);
  if (first.code !== 0) throw new Error(`the first prepare failed: ${first.err}`);
  console.log(`workspace ${WORKSPACE}: corpus + ${copies.length} copies prepared in ${ms(first.to - first.from)}`);

  const server = new DashboardServer();
  const transport = new StdioClientTransport({ command: process.execPath, args: [TSX, "--tsconfig", path.join(REPO, "tsconfig.json"), MAIN, "mcp", "--workspace", WORKSPACE], cwd: REPO, env: process.env as Record<string, string>, stderr: "ignore" });
  const mcp = new Client({ name: "load-fault-bench", version: "1" });
  const allWrites: Write[] = [];
  const allKills: Kill[] = [];
  const failures: string[] = [];
  try {
    console.log(`server ready in ${ms(await server.start())}`);
    await mcp.connect(transport);
    const doors = new Doors(mcp, server, createChainActionId());
    const pool = new TurnPool();
    for (let round = 1; round <= ROUNDS; round += 1) {
      console.log(`\n=== round ${round}: ${await pool.refill()} unwritten turns`);
      const load = await loadPhase(round, doors, pool, copies);
      const loadWall = Math.max(...load.writes.map((w) => w.endedAt)) - Math.min(...load.writes.map((w) => w.startedAt));
      printWrites(`load: ${DOORS.length} doors × ${PER_DOOR} concurrent writes (${ms(loadWall)}), ${load.overlapping}/${load.writes.length} overlapping a prepare`, load.writes);
      console.log(`prepares during the load: ${load.prepares.map((p) => `exit ${p.code} in ${ms(p.to - p.from)}`).join(", ")}`);
      for (const p of load.prepares) if (p.code !== 0) failures.push(`a prepare during the load exited ${p.code}: ${p.err}`);
      if (load.overlapping === 0) console.log("warning: no write overlapped a prepare");
      await pool.refill();
      const fault = await faultPhase(round, doors, pool, server);
      printWrites(`fault: ${fault.kills.length} SIGKILLs of the server while writing`, fault.writes);
      const restarts = fault.kills.map((k) => k.restartMs);
      const firstWrites = fault.restarts.map((r) => r.firstWriteMs).filter((v) => !Number.isNaN(v));
      console.log(`restart to Ready p50 ${ms(pct(restarts, 50))}, max ${ms(Math.max(...restarts))}; Ready to its first write finished p50 ${ms(pct(firstWrites, 50))}, max ${ms(Math.max(...firstWrites))}`);
      console.log(`up before each SIGKILL: ${fault.kills.map((k) => ms(k.upMs)).join(" ")}`);
      console.log(`calls open on the ledger at each SIGKILL: ${fault.kills.map((k) => k.openAtKill.length).join(" ")}`);
      allWrites.push(...load.writes, ...fault.writes);
      allKills.push(...fault.kills);
      const unexpected = [...load.writes, ...fault.writes].filter((w) => w.outcome !== "ack" && !w.cut);
      for (const w of unexpected.slice(0, 10)) failures.push(`${w.claim} (${w.door} → ${key(w.target)}) ${w.outcome}: ${w.detail}`);
      if (unexpected.length > 10) failures.push(`… ${unexpected.length - 10} more unexpected non-acknowledged writes`);

      await auditVerify(`after round ${round} (server up)`, failures);
    }

    // Every acknowledged write on its card; every call open at a SIGKILL finished crashed; no call left open.
    const onDisk = await chainsOnDisk(allWrites);
    const landed = (w: Write) => onDisk.get(key(w.target))?.includes(w.claim) === true;
    const acked = allWrites.filter((w) => w.outcome === "ack");
    const missing = acked.filter((w) => !landed(w));
    const { byClaim, results, open, crashed } = await ledgerCallsByClaim();
    const ackedWithoutReceipt = acked.filter((w) => !(byClaim.get(w.claim) ?? []).some((c) => c.result === "success"));
    const openAtKills = allKills.flatMap((k) => k.openAtKill);
    const notCrashed = openAtKills.filter((s) => results.get(s.receipt_id) !== "crashed");
    const cut = allWrites.filter((w) => w.cut);
    const cutCrashed = cut.filter((w) => (byClaim.get(w.claim) ?? []).some((c) => c.result === "crashed"));
    const cutCompleted = cut.filter((w) => (byClaim.get(w.claim) ?? []).some((c) => c.result === "success"));
    const cutNeverStarted = cut.filter((w) => !byClaim.has(w.claim));
    const cutLanded = cut.filter(landed);
    console.log(`\nchecks`);
    console.log(`writes attempted ${allWrites.length}, acknowledged ${acked.length} (${DOORS.map((d) => `${d} ${acked.filter((w) => w.door === d).length}/${allWrites.filter((w) => w.door === d).length}`).join(", ")})`);
    console.log(`acknowledged but missing from their card: ${missing.length}`);
    console.log(`acknowledged without a success receipt on the ledger: ${ackedWithoutReceipt.length}`);
    console.log(`calls open at a SIGKILL: ${openAtKills.length}, finished crashed by reconciliation: ${openAtKills.length - notCrashed.length}; crashed finishes on the ledger: ${crashed}`);
    console.log(`writes cut by a SIGKILL: ${cut.length} (ledger: ${cutCrashed.length} crashed, ${cutCompleted.length} completed before the kill, ${cutNeverStarted.length} never started; ${cutLanded.length} on their card)`);
    console.log(`calls left open on the ledger: ${open.length}`);
    for (const w of missing.slice(0, 10)) failures.push(`acknowledged but missing: ${w.claim} (${w.door} → ${key(w.target)})`);
    for (const w of ackedWithoutReceipt.slice(0, 10)) failures.push(`acknowledged without a success receipt: ${w.claim} (${w.door})`);
    for (const s of notCrashed.slice(0, 10)) failures.push(`open at a SIGKILL but not finished crashed: ${s.receipt_id} (${s.tool_name}, ${s.door})`);
    for (const s of open.slice(0, 10)) failures.push(`left open on the ledger: ${s.receipt_id} (${s.tool_name}, ${s.door}, pid ${s.pid})`);
    if (allKills.length > 0 && openAtKills.length === 0) console.log("warning: no call was in flight at any SIGKILL");
  } finally {
    await mcp.close().catch(() => undefined);
    await server.stop().catch(() => undefined);
    for (const child of children) child.kill("SIGKILL");
  }
  // The verdict that counts: every door closed, nothing in flight.
  try {
    await auditVerify("at the end (every door closed)", failures);
  } finally {
    if (process.env.BENCH_KEEP !== "1") await fs.rm(DIR, { recursive: true, force: true });
  }
  console.log(`\nwall time ${ms(performance.now() - t0)}`);
  if (failures.length > 0) {
    console.log(`\nFAILED (${failures.length}):\n${failures.map((f) => `  ${f}`).join("\n")}`);
    return 1;
  }
  console.log("all invariants hold");
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
