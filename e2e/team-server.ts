import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { cp, mkdir, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

import { freshTestDatabase } from "../lib/testing/postgres";
import { CORPUS_DIR, REPO_ROOT } from "./paths";

const run = promisify(execFile);

/** The CLI as a user runs it from a checkout (`bin/casefile.mjs`: its bundle, else tsx, then server/cli/main.ts). */
const CASEFILE = [path.join(REPO_ROOT, "bin", "casefile.mjs")];

/** `casefile ARGS` in the repo (`env`: more of its environment), its stdout; throws with its stderr when it exits non-zero. */
export async function casefile(args: string[], env: Record<string, string | undefined> = {}): Promise<string> {
  const { stdout } = await run(process.execPath, [...CASEFILE, ...args], { cwd: REPO_ROOT, env: { ...process.env, ...env }, timeout: 120_000, maxBuffer: 16 << 20 });
  return stdout;
}

/**
 * Two simulated machines' Claude Code homes, each a small slice of the corpus (four sessions in
 * all): `spotter` holds one session of each machine, `workspace` is alpha's only, `repo` beta's.
 * Their files keep the corpus's names, laid out as `~/.claude/projects/<project dir>/` is.
 */
export const MACHINE_SLICES = {
  alpha: {
    "-home-marco-projects-spotter": "misc/marot__spotter/test/fixtures/transcripts/short.jsonl",
    "-workspace": "misc/oneryalcin__fasthooks/specs/data/sample_main_transcript.jsonl",
  },
  beta: {
    "-home-marco-projects-spotter": "misc/marot__spotter/test/fixtures/transcripts/tool_heavy.jsonl",
    "-Users-user-repo": "misc/codemie-ai__codemie-code/tests/integration/session/fixtures/session-9eda1058.jsonl",
  },
} as const;

export type MachineName = keyof typeof MACHINE_SLICES;

/** A free TCP port on loopback (the OS picks it; nothing holds it once this resolves). */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, "close");
  return port;
}

/**
 * A team server as a team runs one (issue 39): `casefile serve --database` on a fresh PostgreSQL
 * database and an empty workspace, on a free port, with tokens made by `casefile token create`
 * (a push token per machine, a read token for the reviewer). {@link TeamServer.push} sends a
 * machine's slice with `casefile push`; {@link TeamServer.stop} ends the server and drops both.
 */
export class TeamServer {
  private constructor(
    readonly url: string,
    readonly tokens: Record<MachineName | "reviewer", string>,
    private readonly homes: string,
    private readonly server: ChildProcess,
    private readonly cleanup: () => Promise<void>,
  ) {}

  static async start(): Promise<TeamServer> {
    const db = await freshTestDatabase("cf_team_e2e");
    const temp = await mkdtemp(path.join(os.tmpdir(), "casefile-team-e2e-"));
    const made = async (machine: string, role: string) => (JSON.parse(await casefile(["token", "create", "--machine", machine, "--role", role, "--database", db.url, "--json"])) as { token: string }).token;
    const [alpha, beta, reviewer] = await Promise.all([made("alpha", "push"), made("beta", "push"), made("reviewer", "read")]);
    const port = await freePort();
    const workspace = path.join(temp, "workspace");
    await mkdir(workspace);
    // Its own process group, so stop() ends the CLI, tsx and the dashboard server together.
    const server = spawn(process.execPath, [...CASEFILE, "serve", "--database", db.url, "--workspace", workspace, "--port", String(port)], { cwd: REPO_ROOT, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    const cleanup = async () => {
      await rm(temp, { recursive: true, force: true });
      await db.drop();
    };
    try {
      await ready(server);
    } catch (error) {
      await stopGroup(server);
      await cleanup();
      throw error;
    }
    return new TeamServer(`http://127.0.0.1:${port}`, { alpha, beta, reviewer }, path.join(temp, "homes"), server, cleanup);
  }

  /**
   * `casefile push --json` on `machine` with its token: HOME is that machine's home holding its
   * slice, so push finds it where it finds a user's sessions (prepare's default roots). The CLI's summary.
   */
  async push(machine: MachineName): Promise<{ sessions_sent: number; sessions_unchanged: number; bytes_sent: number; errors: unknown[] }> {
    const home = path.join(this.homes, machine);
    const projects = path.join(home, ".claude", "projects");
    for (const [dir, file] of Object.entries(MACHINE_SLICES[machine])) {
      await mkdir(path.join(projects, dir), { recursive: true });
      await cp(path.join(CORPUS_DIR, file), path.join(projects, dir, path.basename(file)));
    }
    return JSON.parse(await casefile(["push", "--server", this.url, "--token", this.tokens[machine], "--json"], { HOME: home, CODEX_HOME: undefined }));
  }

  async stop(): Promise<void> {
    await stopGroup(this.server);
    await this.cleanup();
  }
}

/** Resolves when the server says Next is ready (as playwright.config's webServer waits); rejects if it exits first. */
function ready(server: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let said = "";
    const onData = (chunk: Buffer) => {
      said += chunk.toString("utf8");
      if (/Ready in/.test(said)) resolve();
    };
    server.stdout!.on("data", onData);
    server.stderr!.on("data", onData);
    server.once("exit", (code) => reject(new Error(`casefile serve exited (${code}) before it was ready:\n${said}`)));
  });
}

async function stopGroup(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = once(server, "exit");
  try {
    process.kill(-server.pid!, "SIGTERM");
  } catch {
    return; // the group is gone already
  }
  await exited;
}
