/**
 * `npm start` end to end on a machine with no sessions (the demo): what stays running once the
 * dashboard answers (issue 36 item 2). Needs a production build (`.next/BUILD_ID`): without one
 * the start would build the app first, minutes, so the test is skipped.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { makeTempDir } from "@/lib/testing/shared";
import { MALLOC_MMAP_THRESHOLD, SERVER_SEMI_SPACE_MB, START_SCRIPT } from "@/server/cli/serve-command";

const ROOT = path.resolve(path.dirname(START_SCRIPT), "..");

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

/** The processes under `pid` (not itself), each with its parent and command line, from /proc. */
function descendants(pid: number): { pid: number; parent: number; command: string }[] {
  let kids: number[] = [];
  try {
    kids = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    /* gone */
  }
  return kids.flatMap((kid) => {
    let command = "";
    try {
      command = readFileSync(`/proc/${kid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
    } catch {
      /* gone */
    }
    return [{ pid: kid, parent: pid, command }, ...descendants(kid)];
  });
}

describe("npm start (issue 36 item 2)", () => {
  it.skipIf(!existsSync(path.join(ROOT, ".next", "BUILD_ID")))("leaves npm and one plain-Node process, the dashboard server itself: no start-up process, tsx or esbuild", async () => {
    const home = await makeTempDir("casefile-npm-start-");
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, CODEX_HOME: path.join(home, ".codex") };
    for (const key of ["CASEFILE_WORKSPACE", "PORT", "MALLOC_MMAP_THRESHOLD_", "NODE_OPTIONS"]) delete env[key];
    const npm = spawn("npm", ["start", "--", "--port", String(port)], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let output = "";
    npm.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    npm.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    try {
      const deadline = Date.now() + 110_000;
      while (!/Ready in/.test(output)) {
        if (npm.exitCode !== null || Date.now() > deadline) throw new Error(`npm start did not become ready:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
      const tree = descendants(npm.pid!);
      expect(tree.map((p) => [p.parent, p.command])).toEqual([[npm.pid, `node scripts/start.mjs --port ${port}`]]);
      // Started with the server's glibc and V8 settings, which count only at process start.
      const environ = readFileSync(`/proc/${tree[0]!.pid}/environ`, "utf8").split("\0");
      expect(environ).toContain(`MALLOC_MMAP_THRESHOLD_=${MALLOC_MMAP_THRESHOLD}`);
      expect(environ.find((v) => v.startsWith("NODE_OPTIONS="))).toContain(`--max-semi-space-size=${SERVER_SEMI_SPACE_MB}`);
      expect(output).toMatch(/demo transcripts/);
    } finally {
      process.kill(-npm.pid!, "SIGTERM");
      await new Promise((resolve) => (npm.exitCode !== null ? resolve(null) : npm.once("exit", resolve)));
    }
  }, 120_000);

  it.skipIf(!existsSync(path.join(ROOT, ".next", "BUILD_ID")))("casefile start (bin/casefile.mjs) runs the same launcher: no tsx or esbuild process stays beside the dashboard", async () => {
    const home = await makeTempDir("casefile-bin-start-");
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, CODEX_HOME: path.join(home, ".codex") };
    for (const key of ["CASEFILE_WORKSPACE", "PORT", "MALLOC_MMAP_THRESHOLD_", "NODE_OPTIONS"]) delete env[key];
    const bin = spawn(process.execPath, [path.join(ROOT, "bin", "casefile.mjs"), "start", "--port", String(port)], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let output = "";
    bin.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    bin.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    try {
      const deadline = Date.now() + 110_000;
      while (!/Ready in/.test(output)) {
        if (bin.exitCode !== null || Date.now() > deadline) throw new Error(`casefile start did not become ready:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
      const commands = [readFileSync(`/proc/${bin.pid}/cmdline`, "utf8").split("\0").join(" "), ...descendants(bin.pid!).map((p) => p.command)];
      expect(commands.filter((c) => /tsx|esbuild/.test(c))).toEqual([]);
      // The launcher itself and, started with the server's settings, the dashboard server: two processes at most.
      expect(commands.length).toBeLessThanOrEqual(2);
    } finally {
      process.kill(-bin.pid!, "SIGTERM");
      await new Promise((resolve) => (bin.exitCode !== null ? resolve(null) : bin.once("exit", resolve)));
    }
  }, 120_000);
});
