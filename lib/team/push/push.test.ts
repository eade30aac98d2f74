/** Tests of the push protocol's pure parts: the manifest diff, path checks, and which files a root sends. */
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { headSha256 } from "@/lib/team/push/file-head";
import { loadHeadMemo, saveHeadMemo } from "@/lib/team/push/head-memo";
import { HEAD_BYTES, pathProblem, PUSH_KINDS, type ManifestFile, type ManifestRequest } from "@/lib/team/push/protocol";
import { pushOnce } from "@/lib/team/push/push-client";
import { classifyPushedFile, listPushedFiles } from "@/lib/team/push/pushed-files";
import { wantedOffset } from "@/lib/team/receive/manifest-diff";
import { makeTempDir } from "@/lib/testing/shared";
import { originPath } from "@/lib/workspace/sources";

const A = "a".repeat(64);
const B = "b".repeat(64);
const file = (size: number, head = A, mtime_ms = 1000): ManifestFile => ({ root_id: "claude-1", path: "p/s.jsonl", size, mtime_ms, head_sha256: head });

describe("wantedOffset (the manifest diff)", () => {
  it("wants a file it does not hold whole", () => {
    expect(wantedOffset(null, file(10), true)).toBe(0);
  });
  it("wants nothing of a copy with the same size and head", () => {
    expect(wantedOffset({ size: 10, mtime_ms: 1000, head_sha256: A }, file(10), true)).toBeNull();
    // An append-only file touched without a write is the same file; a rewritten JSON file is not.
    expect(wantedOffset({ size: 10, mtime_ms: 999, head_sha256: A }, file(10), true)).toBeNull();
    expect(wantedOffset({ size: 10, mtime_ms: 999, head_sha256: A }, file(10), false)).toBe(0);
  });
  it("wants only the appended bytes of a grown append-only file whose copy covers the head", () => {
    expect(wantedOffset({ size: HEAD_BYTES + 5, mtime_ms: 1, head_sha256: A }, file(HEAD_BYTES + 100), true)).toBe(HEAD_BYTES + 5);
    // A file rewritten from the start (another head) is sent whole.
    expect(wantedOffset({ size: HEAD_BYTES + 5, mtime_ms: 1, head_sha256: B }, file(HEAD_BYTES + 100), true)).toBe(0);
    // A copy shorter than the head cannot show it is a prefix: whole.
    expect(wantedOffset({ size: 100, mtime_ms: 1, head_sha256: A }, file(200), true)).toBe(0);
  });
  it("resumes a cut upload of a file that is not append-only only while its mtime is the one it was written with", () => {
    expect(wantedOffset({ size: HEAD_BYTES * 2, mtime_ms: 1000, head_sha256: A }, file(HEAD_BYTES * 3), false)).toBe(HEAD_BYTES * 2);
    expect(wantedOffset({ size: HEAD_BYTES * 2, mtime_ms: 999, head_sha256: A }, file(HEAD_BYTES * 3), false)).toBe(0);
  });
  it("sends a file that shrank whole", () => {
    expect(wantedOffset({ size: HEAD_BYTES * 2, mtime_ms: 1000, head_sha256: A }, file(HEAD_BYTES), true)).toBe(0);
  });
});

describe("pathProblem", () => {
  it.each(["../x.jsonl", "a/../../x", "/etc/passwd", "C:/x", "a\\b", "a//b", "./a", "a/./b", "", `${"n".repeat(256)}.jsonl`])("refuses %j", (p) => {
    expect(pathProblem(p, false, "files.0.path")).toMatchObject({ field: "files.0.path" });
  });
  it("takes a relative path, and only a name for a one-file root", () => {
    expect(pathProblem("-home-me-app/1.jsonl", false, "f")).toBeNull();
    expect(pathProblem("-home-me-app/1.jsonl", true, "f")?.message).toMatch(/one file/);
    expect(pathProblem("1.jsonl", true, "f")).toBeNull();
  });
});

describe("which files a root sends", () => {
  it("classifies each source's files, leaving out what no source reads", () => {
    expect(classifyPushedFile("claude", "p/s.jsonl", false)).toEqual({ transcript: true, appendOnly: true });
    expect(classifyPushedFile("claude", "p/s/subagents/agent-1.jsonl", false)?.transcript).toBe(false);
    expect(classifyPushedFile("claude", "p/s/tool-results/t.txt", false)).toEqual({ transcript: false, appendOnly: false });
    expect(classifyPushedFile("claude", "p/notes.md", false)).toBeNull();
    expect(classifyPushedFile("gemini-cli", "oauth_creds.json", false)).toBeNull();
    expect(classifyPushedFile("gemini-cli", "settings.json", false)).toBeNull();
    expect(classifyPushedFile("gemini-cli", "tmp/x/chats/session-1.json", false)).toEqual({ transcript: true, appendOnly: false });
    expect(classifyPushedFile("opencode", "auth.json", false)).toBeNull();
    expect(classifyPushedFile("opencode", "storage/part/msg_1/prt_1.json", false)).toEqual({ transcript: false, appendOnly: false });
    expect(classifyPushedFile("aider", "node_modules/x/.aider.chat.history.md", false)).toBeNull();
    expect(classifyPushedFile("aider", "renamed-history.md", true)).toEqual({ transcript: true, appendOnly: true });
  });

  it("has each root kind's rule from its source's descriptor, credentials never among the files sent", () => {
    for (const kind of PUSH_KINDS) {
      expect(() => classifyPushedFile(kind, "x/y.jsonl", false), kind).not.toThrow();
      for (const secret of ["oauth_creds.json", "auth.json", ".git/config", "node_modules/a/auth.json"]) expect(classifyPushedFile(kind, secret, false), `${kind} ${secret}`).toBeNull();
    }
  });

  it("lists a Gemini home's chats and project records, never its credentials", async () => {
    const home = await makeTempDir();
    const put = async (rel: string) => {
      await fs.mkdir(path.dirname(path.join(home, rel)), { recursive: true });
      await fs.writeFile(path.join(home, rel), "{}");
    };
    for (const rel of ["oauth_creds.json", "settings.json", "projects.json", "tmp/app/.project_root", "tmp/app/chats/session-1.json", "tmp/app/logs.json"]) await put(rel);
    expect((await listPushedFiles("gemini-cli", home)).map((f) => f.rel)).toEqual(["projects.json", "tmp/app/.project_root", "tmp/app/chats/session-1.json"]);
  });

  it("lists only a Codex home's rollout folders", async () => {
    const home = await makeTempDir();
    await fs.mkdir(path.join(home, "sessions", "2026", "01"), { recursive: true });
    await fs.writeFile(path.join(home, "sessions", "2026", "01", "rollout-1.jsonl"), "{}\n");
    await fs.writeFile(path.join(home, "history.jsonl"), "{}\n");
    expect((await listPushedFiles("codex", home)).map((f) => f.rel)).toEqual(["sessions/2026/01/rollout-1.jsonl"]);
  });
});

describe("the head memo (a push of unchanged files reads none of them)", () => {
  /** Pushes `root` through a stand-in server that wants nothing; the manifest it was sent. */
  const manifestOf = async (root: string, memoFile: string): Promise<ManifestRequest> => {
    let sent: ManifestRequest | null = null;
    const fakeFetch = (async (_url: string, init: RequestInit) => {
      sent = JSON.parse(String(init.body)) as ManifestRequest;
      return Response.json({ wants: [] });
    }) as typeof fetch;
    const memo = loadHeadMemo(memoFile);
    await pushOnce([{ kind: "claude", path: root }], { server: "http://127.0.0.1:9", token: "t", headCache: memo.cache, fetch: fakeFetch });
    await saveHeadMemo(memo);
    return sent!;
  };

  it("reuses a remembered head while the file's stat is the same, and hashes it again once the file changes", async () => {
    const dir = await makeTempDir();
    const root = path.join(dir, "projects");
    const session = path.join(root, "p", "s.jsonl");
    await fs.mkdir(path.dirname(session), { recursive: true });
    await fs.writeFile(session, "{}\n");
    await fs.utimes(session, 1_700_000_000, 1_700_000_000);
    const memoFile = path.join(dir, "home", ".casefile", "push-heads.json");
    expect((await manifestOf(root, memoFile)).files[0]!.head_sha256).toBe(headSha256(session, 3));
    // A head planted in the memo under the file's own stamp is what the next push sends: the file was not read.
    const memo = JSON.parse(await fs.readFile(memoFile, "utf8")) as { heads: Record<string, [string, string]> };
    memo.heads[session]![1] = "f".repeat(64);
    await fs.writeFile(memoFile, JSON.stringify(memo));
    expect((await manifestOf(root, memoFile)).files[0]!.head_sha256).toBe("f".repeat(64));
    // Any write changes the stamp (here: the same size, the mtime put back; the ctime moves): read again.
    await fs.writeFile(session, "[]\n");
    await fs.utimes(session, 1_700_000_000, 1_700_000_000);
    expect((await manifestOf(root, memoFile)).files[0]!.head_sha256).toBe(headSha256(session, 3));
  });

  it("keeps only the files of the last push, and starts empty from a malformed memo", async () => {
    const dir = await makeTempDir();
    const memoFile = path.join(dir, "push-heads.json");
    await fs.writeFile(memoFile, "{not json");
    expect(loadHeadMemo(memoFile).cache.size).toBe(0);
    const root = path.join(dir, "projects");
    await fs.mkdir(path.join(root, "p"), { recursive: true });
    await fs.writeFile(path.join(root, "p", "a.jsonl"), "{}\n");
    await fs.writeFile(path.join(root, "p", "b.jsonl"), "{}\n");
    await manifestOf(root, memoFile);
    expect([...loadHeadMemo(memoFile).cache.keys()].sort()).toEqual([path.join(root, "p", "a.jsonl"), path.join(root, "p", "b.jsonl")]);
    await fs.rm(path.join(root, "p", "b.jsonl"));
    await manifestOf(root, memoFile);
    expect([...loadHeadMemo(memoFile).cache.keys()]).toEqual([path.join(root, "p", "a.jsonl")]);
  });
});

describe("a batch of small files", () => {
  it("leaves out a file that shrank after the manifest, and sends the others' bytes as they are", async () => {
    const root = path.join(await makeTempDir(), "projects");
    await fs.mkdir(path.join(root, "p"), { recursive: true });
    for (const [name, text] of [["a.jsonl", "{\"a\":1}\n"], ["b.jsonl", "{\"b\":22}\n"], ["c.jsonl", "{\"c\":333}\n"]]) await fs.writeFile(path.join(root, "p", name!), text!);
    let batch: Buffer | null = null;
    const fakeFetch = (async (url: string, init: RequestInit) => {
      if (url.endsWith("/manifest")) {
        const manifest = JSON.parse(String(init.body)) as ManifestRequest;
        await fs.writeFile(path.join(root, "p", "b.jsonl"), "{}");
        return Response.json({ wants: manifest.files.map((f) => ({ root_id: f.root_id, path: f.path, offset: 0 })) });
      }
      batch = Buffer.from(init.body as Uint8Array);
      return Response.json({ results: [{ status: "ok", have_bytes: 8 }, { status: "ok", have_bytes: 10 }] });
    }) as typeof fetch;
    const summary = await pushOnce([{ kind: "claude", path: root }], { server: "http://127.0.0.1:9", token: "t", fetch: fakeFetch });
    expect(summary.errors.map((e) => e.field)).toEqual([`${root}/p/b.jsonl`]);
    expect(summary.sessions_sent).toBe(2);
    const text = batch!.toString("utf8");
    const header = JSON.parse(text.slice(0, text.indexOf("\n"))) as { files: { path: string; length: number }[] };
    expect(header.files.map((f) => [f.path, f.length])).toEqual([["p/a.jsonl", 8], ["p/c.jsonl", 10]]);
    expect(text.slice(text.indexOf("\n") + 1)).toBe('{"a":1}\n{"c":333}\n');
  });
});

describe("originPath (a pushed root's projects named as on its machine)", () => {
  const mirror = "/ws/team/machines/m1/aider-1/myrepo";
  it("maps a project root inside a mirror, or a one-file root's folder, to the machine's path", () => {
    expect(originPath({ [mirror]: "/home/me/src/myrepo" }, mirror, mirror)).toBe("/home/me/src/myrepo");
    expect(originPath({ [mirror]: "/home/me/src" }, mirror, `${mirror}/app`)).toBe("/home/me/src/app");
    const file = "/ws/team/machines/m1/aider-2/history.md";
    expect(originPath({ [file]: "/home/me/app/history.md" }, file, "/ws/team/machines/m1/aider-2")).toBe("/home/me/app");
  });
  it("leaves other project roots, and roots without an origin, alone", () => {
    expect(originPath({ [mirror]: "/home/me/src/myrepo" }, mirror, "/home/me/elsewhere")).toBe("/home/me/elsewhere");
    expect(originPath(undefined, mirror, mirror)).toBe(mirror);
    expect(originPath({ [mirror]: "/x" }, mirror, null)).toBeNull();
  });
});
