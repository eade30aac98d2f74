/** Tests of `casefile push` against an in-process team server (issue 39): resume, re-push, refusals. */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import { CHUNK_BYTES, HEAD_BYTES } from "@/lib/team/push/protocol";
import { PushCutShort, pushOnce, rootIdOf, type PushSource } from "@/lib/team/push/push-client";
import { claudeLines } from "@/lib/testing/transcripts";
import { makeTempDir } from "@/lib/testing/shared";
import { teamMirrorDir } from "@/lib/fs/workspace-layout";
import { readSources } from "@/lib/workspace/sources";
import { openTeamDatabase } from "@/lib/team/database";
import { authenticateToken, createToken, revokeToken, type TeamActor } from "@/lib/team/tokens";
import { describePostgres, freshTestDatabase } from "@/lib/testing/postgres";
import { startTeamTestServer, type TeamTestServer } from "@/server/http/team-test-server";

/** A `casefile push` process's environment: its HOME a temp folder, so its head memo (~/.casefile/push-heads.json) never lands in the user's home. */
const cliEnv = (home: string): NodeJS.ProcessEnv => ({ ...process.env, HOME: home });

/** A token table standing in for the database (the PostgreSQL suite below uses real tokens). */
const TOKENS: Record<string, TeamActor> = { "tok-alpha": { token_id: "t1", machine: "alpha", role: "push" }, "tok-read": { token_id: "t2", machine: "reader", role: "read" } };
const authenticate = async (token: string) => TOKENS[token] ?? null;

let servers: TeamTestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function serve(workspace: string, onFileRequest?: (url: string) => Promise<void> | void): Promise<TeamTestServer> {
  const server = await startTeamTestServer(workspace, { authenticate, onFileRequest });
  servers.push(server);
  return server;
}

/** A Claude projects root: two small sessions (one with a subagent and a tool result) and one of 9 MiB (two chunks). */
async function claudeRoot(): Promise<{ root: string; big: string; bytes: number }> {
  const root = await makeTempDir("push-src-");
  const dir = path.join(root, "-home-me-app");
  await fs.mkdir(path.join(dir, "s1", "subagents"), { recursive: true });
  await fs.mkdir(path.join(dir, "s1", "tool-results"), { recursive: true });
  await fs.writeFile(path.join(dir, "s1.jsonl"), claudeLines("s1", "/home/me/app", 2));
  await fs.writeFile(path.join(dir, "s1", "subagents", "agent-a1.jsonl"), claudeLines("s1", "/home/me/app", 1));
  await fs.writeFile(path.join(dir, "s1", "tool-results", "toolu_1.txt"), "tool output\n");
  await fs.writeFile(path.join(dir, "s2.jsonl"), claudeLines("s2", "/home/me/app", 3));
  const big = path.join(dir, "s3.jsonl");
  const line = claudeLines("s3", "/home/me/app", 1);
  await fs.writeFile(big, line.repeat(Math.ceil((CHUNK_BYTES + 1024 * 1024) / line.length)));
  await fs.writeFile(path.join(dir, "notes.md"), "not a session\n");
  let bytes = 0;
  for (const f of ["s1.jsonl", "s1/subagents/agent-a1.jsonl", "s1/tool-results/toolu_1.txt", "s2.jsonl", "s3.jsonl"]) bytes += (await fs.stat(path.join(dir, f))).size;
  return { root, big, bytes };
}

/** Where the server keeps a machine's root: `<root_id>/<the root's name>`. */
const mirrorOf = (ws: string, machine: string, source: PushSource) => path.join(teamMirrorDir(ws, machine, rootIdOf(source)), path.basename(source.path));

/** Every file under `dir`, relative, with its bytes. */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, file)] = (await fs.readFile(file)).toString("base64");
  }
  return out;
}

const pushedTree = async (src: string) => {
  const all = await tree(src);
  delete all[path.join("-home-me-app", "notes.md")];
  return all;
};

describe("casefile push to a team server (issue 39)", () => {
  it("sends every session file once: a re-push sends 0 bytes, a grown session only its new bytes", async () => {
    const ws = await makeTempDir("team-ws-");
    const server = await serve(ws);
    const { root, big, bytes } = await claudeRoot();
    const sources: PushSource[] = [{ kind: "claude", path: root }];
    const first = await pushOnce(sources, { server: server.url, token: "tok-alpha" });
    expect(first).toEqual({ sessions_sent: 3, sessions_unchanged: 0, bytes_sent: bytes, errors: [] });
    const mirror = mirrorOf(ws, "alpha", sources[0]!);
    expect(await tree(mirror)).toEqual(await pushedTree(root));

    expect(await pushOnce(sources, { server: server.url, token: "tok-alpha" })).toEqual({ sessions_sent: 0, sessions_unchanged: 3, bytes_sent: 0, errors: [] });
    // The mirror is a source of the server's workspace, with its machine: the ordinary sync prepares it.
    expect(await readSources(ws)).toMatchObject({ claude: [mirror], machines: { [mirror]: "alpha" } });

    const more = claudeLines("s3", "/home/me/app", 2, 2);
    await fs.appendFile(big, more);
    expect(await pushOnce(sources, { server: server.url, token: "tok-alpha" })).toEqual({ sessions_sent: 1, sessions_unchanged: 2, bytes_sent: Buffer.byteLength(more), errors: [] });
    expect(await tree(mirror)).toEqual(await pushedTree(root));
  });

  it("resumes a push cut short: the server keeps what arrived and the rest follows from there", async () => {
    const ws = await makeTempDir("team-ws-");
    const server = await serve(ws);
    const { root, bytes } = await claudeRoot();
    const sources: PushSource[] = [{ kind: "claude", path: root }];
    // The manifest, the batch of the small files, then s3's first chunk (8 MiB): not its rest.
    const files = await fs.readdir(path.join(root, "-home-me-app"));
    expect(files).toContain("s3.jsonl");
    await expect(pushOnce(sources, { server: server.url, token: "tok-alpha", concurrency: 1, maxRequests: 3 })).rejects.toBeInstanceOf(PushCutShort);
    const mirror = mirrorOf(ws, "alpha", sources[0]!);
    const held = Object.values(await tree(mirror)).reduce((n, b64) => n + Buffer.from(b64, "base64").length, 0);
    expect(held).toBeGreaterThan(HEAD_BYTES);
    expect(held).toBeLessThan(bytes);
    const rest = await pushOnce(sources, { server: server.url, token: "tok-alpha" });
    expect(rest.bytes_sent).toBe(bytes - held);
    expect(rest.errors).toEqual([]);
    expect(await tree(mirror)).toEqual(await pushedTree(root));
    expect((await pushOnce(sources, { server: server.url, token: "tok-alpha" })).bytes_sent).toBe(0);
  });

  it("resumes after a `casefile push` process is SIGKILLed mid-push", async () => {
    const ws = await makeTempDir("team-ws-");
    const { root, bytes } = await claudeRoot();
    const home = await makeTempDir("push-home-");
    let child: ReturnType<typeof spawn> | null = null;
    let stderr = "";
    const killed = new Promise<void>((resolve, reject) => {
      void serve(ws, (url) => {
        // s3's first chunk (8 MiB): the process dies while sending it.
        if (new URL(url).searchParams.get("path")?.endsWith("s3.jsonl") && child) {
          child.kill("SIGKILL");
          resolve();
        }
      }).then((server) => {
        child = spawn(process.execPath, [path.resolve("node_modules/tsx/dist/cli.mjs"), path.resolve("server/cli/main.ts"), "push", "--server", server.url, "--token", "tok-alpha", "--claude", root, "--json"], { stdio: ["ignore", "ignore", "pipe"], env: cliEnv(home) });
        child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
        child.once("exit", (code) => reject(new Error(`casefile push exited (${code}) before it was killed: ${stderr}`)));
      });
    });
    await killed;
    if (child!.exitCode === null && child!.signalCode === null) await new Promise<void>((resolve) => child!.once("exit", () => resolve()));
    expect(child!.signalCode).toBe("SIGKILL");
    const sources: PushSource[] = [{ kind: "claude", path: root }];
    const mirror = mirrorOf(ws, "alpha", sources[0]!);
    // A request cut off stores nothing of its body: s3's copy is absent, or the whole chunk if it had all arrived.
    const s3 = (await tree(mirror))[path.join("-home-me-app", "s3.jsonl")];
    expect([undefined, CHUNK_BYTES]).toContain(s3 === undefined ? undefined : Buffer.from(s3, "base64").length);
    const rest = await pushOnce(sources, { server: servers[0]!.url, token: "tok-alpha" });
    expect(rest.errors).toEqual([]);
    expect(rest.bytes_sent).toBeLessThan(bytes);
    expect(await tree(mirror)).toEqual(await pushedTree(root));
    expect((await pushOnce(sources, { server: servers[0]!.url, token: "tok-alpha" })).bytes_sent).toBe(0);
  }, 120_000);

  it("`casefile push --watch` pushes again when a session grows, until it is stopped", async () => {
    const ws = await makeTempDir("team-ws-");
    const server = await serve(ws);
    const { root } = await claudeRoot();
    const home = await makeTempDir("push-home-");
    const child = spawn(process.execPath, [path.resolve("node_modules/tsx/dist/cli.mjs"), path.resolve("server/cli/main.ts"), "push", "--server", server.url, "--token", "tok-alpha", "--claude", root, "--watch", "--json"], { stdio: ["ignore", "pipe", "pipe"], env: cliEnv(home) });
    const summaries: { sessions_sent: number; bytes_sent: number }[] = [];
    let stderr = "";
    let waiting: (() => void) | null = null;
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const lines = out.split("\n");
      out = lines.pop()!;
      for (const line of lines) summaries.push(JSON.parse(line) as { sessions_sent: number; bytes_sent: number });
      waiting?.();
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const until = async (ok: () => boolean) => {
      while (!ok()) {
        const more = new Promise<void>((resolve) => (waiting = resolve));
        if ((await Promise.race([more.then(() => "more"), exited.then(() => "exited")])) === "exited") throw new Error(`push --watch exited: ${stderr}`);
      }
    };
    await until(() => summaries.length >= 1);
    expect(summaries[0]).toMatchObject({ sessions_sent: 3, errors: [] });
    const more = claudeLines("s2", "/home/me/app", 1, 4);
    await fs.appendFile(path.join(root, "-home-me-app", "s2.jsonl"), more);
    await until(() => summaries.some((s) => s.bytes_sent > 0 && s !== summaries[0]));
    expect(summaries.slice(1).find((s) => s.bytes_sent > 0)).toMatchObject({ sessions_sent: 1, bytes_sent: expect.any(Number) });
    // Ctrl-C: tsx hands it to the push, which stops watching and exits 0.
    child.kill("SIGINT");
    expect(await exited).toBe(0);
    // The push's head memo went to the process's HOME (a temp one here), never the user's.
    expect(existsSync(path.join(home, ".casefile", "push-heads.json"))).toBe(true);
  }, 120_000);

  it("refuses a manifest whose path escapes its root, and a chunk sent there, storing nothing", async () => {
    const ws = await makeTempDir("team-ws-");
    const server = await serve(ws);
    const roots = [{ root_id: "claude-0123456789abcdef", kind: "claude", path: "/home/me/.claude/projects" }];
    const files = [{ root_id: "claude-0123456789abcdef", path: "../../../escape.jsonl", size: 1, mtime_ms: 1, head_sha256: "0".repeat(64) }];
    const post = (body: unknown) => fetch(`${server.url}/api/team/push/manifest`, { method: "POST", headers: { authorization: "Bearer tok-alpha", "content-type": "application/json" }, body: JSON.stringify(body) });
    const refused = await post({ roots, files });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ status: "invalid", errors: [{ field: "files.0.path", message: expect.stringMatching(/escapes/), hint: expect.any(String) }] });
    expect(existsSync(path.join(ws, "team"))).toBe(false);

    expect((await post({ roots, files: [] })).status).toBe(200);
    const put = await fetch(`${server.url}/api/team/push/file?root_id=claude-0123456789abcdef&path=${encodeURIComponent("a/../../x.jsonl")}&offset=0&mtime_ms=1`, { method: "PUT", headers: { authorization: "Bearer tok-alpha" }, body: "x" });
    expect(put.status).toBe(400);
    expect(await put.json()).toMatchObject({ status: "invalid", errors: [{ field: "path" }] });
    expect(await tree(path.join(ws, "team"))).toEqual({ [path.join("machines", "alpha", "push-state.json")]: expect.any(String) });
  });

  it("takes a batch of small files file by file: a path that escapes is refused, an offset it does not hold conflicts, a malformed batch stores nothing", async () => {
    const ws = await makeTempDir("team-ws-");
    const server = await serve(ws);
    const root = { root_id: "claude-0123456789abcdef", kind: "claude", path: "/home/me/.claude/projects" };
    const headers = { authorization: "Bearer tok-alpha" };
    expect((await fetch(`${server.url}/api/team/push/manifest`, { method: "POST", headers, body: JSON.stringify({ roots: [root], files: [] }) })).status).toBe(200);
    const files = [
      { root_id: root.root_id, path: "p/a.jsonl", offset: 0, mtime_ms: 1000, length: 3 },
      { root_id: root.root_id, path: "p/../../../b.jsonl", offset: 0, mtime_ms: 1000, length: 3 },
      { root_id: root.root_id, path: "p/c.jsonl", offset: 5, mtime_ms: 1000, length: 3 },
    ];
    const post = (body: Buffer<ArrayBuffer>) => fetch(`${server.url}/api/team/push/files`, { method: "POST", headers, body });
    const answer = await post(Buffer.concat([Buffer.from(`${JSON.stringify({ files })}\n`), Buffer.from("{}\n{}\n{}\n")]));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ results: [{ status: "ok", have_bytes: 3 }, { status: "invalid", errors: [{ field: "files.1.path" }] }, { status: "conflict", have_bytes: 0 }] });
    const mirror = path.join(teamMirrorDir(ws, "alpha", root.root_id), "projects");
    expect(Object.keys(await tree(mirror))).toEqual([path.join("p", "a.jsonl")]);
    // A path through a file the server holds is refused, in a manifest and a batch alike (not a 500).
    const through = { root_id: root.root_id, path: "p/a.jsonl/x.jsonl", size: 1, mtime_ms: 1, head_sha256: "0".repeat(64) };
    expect((await fetch(`${server.url}/api/team/push/manifest`, { method: "POST", headers, body: JSON.stringify({ roots: [root], files: [through] }) })).status).toBe(200);
    const inside = await post(Buffer.concat([Buffer.from(`${JSON.stringify({ files: [{ ...files[0], path: through.path, length: 1 }] })}\n`), Buffer.from("x")]));
    expect(await inside.json()).toMatchObject({ results: [{ status: "invalid", errors: [{ field: "files.0.path" }] }] });
    // Lengths that do not add up to the bytes sent: refused whole.
    const short = await post(Buffer.concat([Buffer.from(`${JSON.stringify({ files: [{ ...files[0], path: "p/d.jsonl" }] })}\n`), Buffer.from("{")]));
    expect(short.status).toBe(400);
    expect(await short.json()).toMatchObject({ status: "invalid", errors: [{ field: "body" }] });
    expect(Object.keys(await tree(mirror))).toEqual([path.join("p", "a.jsonl")]);
  });

  it("keeps a whole file's head hash as the batch gives it, or hashes the bytes; a wrong one only makes the next push send the file again", async () => {
    const ws = await makeTempDir("team-ws-");
    const server = await serve(ws);
    const root = { root_id: "claude-0123456789abcdef", kind: "claude", path: "/home/me/.claude/projects" };
    const headers = { authorization: "Bearer tok-alpha" };
    const text = "{}\n";
    const truth = createHash("sha256").update(text).digest("hex");
    const manifest = async (file: string) => {
      const response = await fetch(`${server.url}/api/team/push/manifest`, { method: "POST", headers, body: JSON.stringify({ roots: [root], files: [{ root_id: root.root_id, path: file, size: 3, mtime_ms: 1000, head_sha256: truth }] }) });
      return ((await response.json()) as { wants: { path: string; offset: number }[] }).wants;
    };
    await manifest("p/x.jsonl");
    const files = [
      { root_id: root.root_id, path: "p/given.jsonl", offset: 0, mtime_ms: 1000, length: 3, head_sha256: truth },
      { root_id: root.root_id, path: "p/hashed.jsonl", offset: 0, mtime_ms: 1000, length: 3 },
      { root_id: root.root_id, path: "p/wrong.jsonl", offset: 0, mtime_ms: 1000, length: 3, head_sha256: "f".repeat(64) },
    ];
    const sent = await fetch(`${server.url}/api/team/push/files`, { method: "POST", headers, body: Buffer.concat([Buffer.from(`${JSON.stringify({ files })}\n`), Buffer.from(text.repeat(3))]) });
    expect(((await sent.json()) as { results: { status: string }[] }).results.map((r) => r.status)).toEqual(["ok", "ok", "ok"]);
    expect(await manifest("p/given.jsonl")).toEqual([]);
    expect(await manifest("p/hashed.jsonl")).toEqual([]);
    expect(await manifest("p/wrong.jsonl")).toEqual([{ root_id: root.root_id, path: "p/wrong.jsonl", offset: 0 }]);
    // A head that is not a SHA-256 refuses the batch whole.
    const bad = await fetch(`${server.url}/api/team/push/files`, { method: "POST", headers, body: Buffer.concat([Buffer.from(`${JSON.stringify({ files: [{ ...files[0], path: "p/bad.jsonl", head_sha256: "nope" }] })}\n`), Buffer.from(text)]) });
    expect(bad.status).toBe(400);
  });

  it("stores nothing for a missing or wrong token, and refuses a read token", async () => {
    const ws = await makeTempDir("team-ws-");
    const server = await serve(ws);
    const { root } = await claudeRoot();
    const sources: PushSource[] = [{ kind: "claude", path: root }];
    await expect(pushOnce(sources, { server: server.url, token: "tok-wrong" })).rejects.toThrow(/refused the token \(401\)/);
    await expect(pushOnce(sources, { server: server.url, token: "tok-read" })).rejects.toThrow(/refused the token \(403\)/);
    const anonymous = await fetch(`${server.url}/api/team/push/file?root_id=x&path=a.jsonl&offset=0&mtime_ms=1`, { method: "PUT", body: "x" });
    expect(anonymous.status).toBe(401);
    expect(existsSync(path.join(ws, "team"))).toBe(false);
    expect(existsSync(path.join(ws, ".casefile-config", "sources.json"))).toBe(false);
  });
});

describePostgres("casefile push with real team tokens (issue 39)", () => {
  let db: Awaited<ReturnType<typeof freshTestDatabase>>;
  beforeAll(async () => {
    db = await freshTestDatabase("cf_push_test");
  });
  afterAll(async () => {
    await db?.drop();
  });

  it("pushes with a push token as its machine; a revoked or read token stores nothing", async () => {
    const pool = await openTeamDatabase(db.url);
    const ws = await makeTempDir("team-ws-");
    const other = await startTeamTestServer(ws, { authenticate: (token) => authenticateToken(pool, token) });
    servers.push(other);
    const { root, bytes } = await claudeRoot();
    const sources: PushSource[] = [{ kind: "claude", path: root }];
    const push = await createToken(pool, { machine: "laptop-7", role: "push" });
    const read = await createToken(pool, { machine: "viewer", role: "read" });
    const revoked = await createToken(pool, { machine: "old-box", role: "push" });
    await revokeToken(pool, revoked.token_id);
    await expect(pushOnce(sources, { server: other.url, token: revoked.token })).rejects.toThrow(/\(401\)/);
    await expect(pushOnce(sources, { server: other.url, token: read.token })).rejects.toThrow(/\(403\)/);
    expect(existsSync(path.join(ws, "team"))).toBe(false);
    expect(await pushOnce(sources, { server: other.url, token: push.token })).toMatchObject({ sessions_sent: 3, bytes_sent: bytes, errors: [] });
    expect(await tree(mirrorOf(ws, "laptop-7", sources[0]!))).toEqual(await pushedTree(root));
  });
});
