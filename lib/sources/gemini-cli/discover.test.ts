import { readFileSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

import { physicalLines } from "@/lib/jsonl/text-lines";
import { geminiSource } from "@/lib/sources/gemini-cli/source";
import { locateChatFile } from "@/lib/sources/gemini-cli/discover";
import { geminiProjectHash } from "@/lib/sources/gemini-cli/project-roots";
import { makeTempDir } from "@/lib/testing/shared";

const FIXTURES = path.join(__dirname, "__fixtures__");
const PARENT = "5e1f2a3b-0c4d-4e5f-8a9b-0c1d2e3f4a5b";
const SUBAGENT = "7c0e9a1b-2d3c-4e5f-9a8b-7c6d5e4f3a2b";
const LEGACY_HASH = geminiProjectHash("/work/legacy-app");
const UNKNOWN_HASH = "f".repeat(64);

/** A user home with a Gemini home laid out as the CLI writes it: slug and hash folders, a subagent, a migrated legacy file, bad files. */
async function makeHome(): Promise<{ user: string; gemini: string }> {
  const user = await makeTempDir("casefile-gemini-");
  const gemini = path.join(user, ".gemini");
  const put = async (rel: string, content: string | Buffer) => {
    await fs.mkdir(path.dirname(path.join(gemini, rel)), { recursive: true });
    await fs.writeFile(path.join(gemini, rel), content);
  };
  const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));
  await put("projects.json", JSON.stringify({ projects: { "/work/demo": "demo" } }));
  await put("history/legacy-app/.project_root", "/work/legacy-app\n");
  await put("tmp/demo/chats/session-2026-04-10T09-00-5e1f2a3b.jsonl", fixture("replay.jsonl"));
  await put(`tmp/demo/chats/${PARENT}/${SUBAGENT}.jsonl`, fixture("subagent.jsonl"));
  await put(`tmp/${LEGACY_HASH}/chats/session-2025-11-02T14-00-0b9d3c1e.json`, fixture("legacy.json"));
  // Resuming a legacy session writes `<name>.jsonl` beside `<name>.json`: two files, one sessionId.
  const legacy = JSON.parse(fixture("legacy.json").toString("utf8")) as Record<string, unknown>;
  const { messages, ...header } = legacy;
  const migrated = [header, ...(messages as unknown[])].map((o) => JSON.stringify(o)).join("\n") + "\n";
  await put(`tmp/${LEGACY_HASH}/chats/session-2025-11-02T14-00-0b9d3c1e.jsonl`, migrated);
  await put("tmp/orphan/chats/session-2025-12-01T08-00-deadbeef.json", fixture("malformed.json"));
  await put("tmp/orphan/chats/session-2026-05-01T08-00-00000000.jsonl", "");
  await put(`tmp/${UNKNOWN_HASH}/chats/session-2026-05-02T08-00-badhead0.jsonl`, '{"sessionId":"cut\n{"id":"u","type":"user","content":"hi"}\n');
  await put(`tmp/${UNKNOWN_HASH}/logs.json`, "[]");
  await put("history/legacy-app/HEAD", "ref: refs/heads/main\n");
  return { user, gemini };
}

describe("geminiSource.defaultRoots", () => {
  it("is ~/.gemini, or $GEMINI_CLI_HOME/.gemini when set", () => {
    expect(geminiSource.defaultRoots("/home/u", { ...process.env, GEMINI_CLI_HOME: undefined })).toEqual(["/home/u/.gemini"]);
    expect(geminiSource.defaultRoots("/home/u", { ...process.env, GEMINI_CLI_HOME: "/srv/profile" })).toEqual(["/srv/profile/.gemini"]);
    expect(geminiSource.defaultRoots("/home/u", { ...process.env, GEMINI_CLI_HOME: " " })).toEqual(["/home/u/.gemini"]);
  });
});

describe("geminiSource.discover", () => {
  let home: { user: string; gemini: string };
  beforeAll(async () => {
    home = await makeHome();
  });

  it("finds every session of a Gemini home, keyed by path, with its project and warnings for bad files", async () => {
    const { sessions, warnings } = await geminiSource.discover(home.gemini);
    const rel = (p: string) => path.relative(home.gemini, p);
    expect(sessions.map((s) => [rel(s.sourcePath), s.fileName, s.sourceSessionId, s.projectRoot])).toEqual([
      [`tmp/${LEGACY_HASH}/chats/session-2025-11-02T14-00-0b9d3c1e.json`, `${LEGACY_HASH}__session-2025-11-02T14-00-0b9d3c1e.json.jsonl`, "0b9d3c1e-7a6f-4d2b-9e8c-3f2a1b0c9d8e", "/work/legacy-app"],
      [`tmp/${LEGACY_HASH}/chats/session-2025-11-02T14-00-0b9d3c1e.jsonl`, `${LEGACY_HASH}__session-2025-11-02T14-00-0b9d3c1e.jsonl`, "0b9d3c1e-7a6f-4d2b-9e8c-3f2a1b0c9d8e", "/work/legacy-app"],
      ["tmp/demo/chats/5e1f2a3b-0c4d-4e5f-8a9b-0c1d2e3f4a5b/7c0e9a1b-2d3c-4e5f-9a8b-7c6d5e4f3a2b.jsonl", `demo__${PARENT}__${SUBAGENT}.jsonl`, SUBAGENT, "/work/demo"],
      ["tmp/demo/chats/session-2026-04-10T09-00-5e1f2a3b.jsonl", "demo__session-2026-04-10T09-00-5e1f2a3b.jsonl", PARENT, "/work/demo"],
      [`tmp/${UNKNOWN_HASH}/chats/session-2026-05-02T08-00-badhead0.jsonl`, `${UNKNOWN_HASH}__session-2026-05-02T08-00-badhead0.jsonl`, "session-2026-05-02T08-00-badhead0", null],
    ]);
    expect(new Set(sessions.map((s) => s.fileName)).size).toBe(sessions.length);
    expect(warnings.map((w) => [rel(w.file), w.where, w.problem.replace(/JSON \(.*\)/, "JSON (…)")])).toEqual([
      [`tmp/${UNKNOWN_HASH}/chats/session-2026-05-02T08-00-badhead0.jsonl`, "line 1", 'no sessionId in the header; using the file name "session-2026-05-02T08-00-badhead0"'],
      ["tmp/orphan/chats/session-2025-12-01T08-00-deadbeef.json", "file", "not valid JSON (…); skipped"],
      ["tmp/orphan/chats/session-2026-05-01T08-00-00000000.jsonl", "file", "empty file (no header yet); skipped"],
    ]);
  });

  it("resolves the same session alike from a home's parent, tmp, a project folder, a chats folder, a subagent folder or the file", async () => {
    const all = (await geminiSource.discover(home.gemini)).sessions;
    const demoMain = all.find((s) => s.sourceSessionId === PARENT)!;
    const demoSub = all.find((s) => s.sourceSessionId === SUBAGENT)!;
    const chats = path.join(home.gemini, "tmp", "demo", "chats");
    expect((await geminiSource.discover(home.user)).sessions).toEqual(all);
    expect((await geminiSource.discover(path.join(home.gemini, "tmp"))).sessions).toEqual(all);
    expect((await geminiSource.discover(path.join(home.gemini, "tmp", "demo"))).sessions).toEqual([demoSub, demoMain]);
    expect((await geminiSource.discover(chats)).sessions).toEqual([demoSub, demoMain]);
    expect((await geminiSource.discover(path.join(chats, PARENT))).sessions).toEqual([demoSub]);
    expect(await geminiSource.discover(demoMain.sourcePath)).toEqual({ sessions: [demoMain], warnings: [] });
  });

  it("reports a missing root, a file that is not a session, and a folder with no chats", async () => {
    const missing = path.join(home.user, "nope");
    expect(await geminiSource.discover(missing)).toEqual({ sessions: [], warnings: [{ file: missing, where: "root", problem: "does not exist or cannot be read" }] });
    const head = path.join(home.gemini, "history", "legacy-app", "HEAD");
    expect(await geminiSource.discover(head)).toEqual({ sessions: [], warnings: [{ file: head, where: "root", problem: "not a .json or .jsonl session file" }] });
    const registry = path.join(home.gemini, "projects.json");
    expect(await geminiSource.discover(registry)).toEqual({
      sessions: [],
      warnings: [{ file: registry, where: "file", problem: "not a Gemini session object (no sessionId, no messages); skipped" }],
    });
    const history = path.join(home.gemini, "history");
    expect(await geminiSource.discover(history)).toEqual({
      sessions: [],
      warnings: [{ file: history, where: "root", problem: "no Gemini CLI chats folder (tmp/<project>/chats) under this folder" }],
    });
  });

  it("warns about a malformed projects.json and still resolves roots from .project_root", async () => {
    const user = await makeTempDir("casefile-gemini-");
    const gemini = path.join(user, ".gemini");
    await fs.mkdir(path.join(gemini, "tmp", "demo", "chats"), { recursive: true });
    await fs.writeFile(path.join(gemini, "projects.json"), '{"projects": [');
    await fs.writeFile(path.join(gemini, "tmp", "demo", ".project_root"), "/work/demo");
    await fs.copyFile(path.join(FIXTURES, "subagent.jsonl"), path.join(gemini, "tmp", "demo", "chats", "session-x.jsonl"));
    const { sessions, warnings } = await geminiSource.discover(gemini);
    expect(sessions.map((s) => s.projectRoot)).toEqual(["/work/demo"]);
    expect(warnings).toEqual([{ file: path.join(gemini, "projects.json"), where: "file", problem: 'not a {"projects": {root: slug}} object; ignored' }]);
  });

  it("changes the stamp when the file grows", async () => {
    const file = path.join(home.gemini, "tmp", "demo", "chats", "session-2026-04-10T09-00-5e1f2a3b.jsonl");
    const before = (await geminiSource.discover(file)).sessions[0]!.stamp;
    await fs.appendFile(file, "\n");
    const after = (await geminiSource.discover(file)).sessions[0]!.stamp;
    expect(after).not.toBe(before);
  });
});

describe("geminiSource.exportLines", () => {
  it("copies a JSONL session byte for byte, and parseLines reads those lines", async () => {
    const { gemini } = await makeHome();
    const found = (await geminiSource.discover(gemini)).sessions.find((s) => s.sourceSessionId === PARENT)!;
    const text = await fs.readFile(found.sourcePath, "utf8");
    const { lines, warnings } = await geminiSource.exportLines(found);
    expect(warnings).toEqual([]);
    expect(lines).toEqual(physicalLines(text));
    expect(lines.join("\n")).toBe(text);
    const t = geminiSource.parseLines(lines, found.fileName);
    expect(t.records).toHaveLength(13);
    expect(t.turns).toHaveLength(2);
  });

  it("gives a JSONL session's bytes with its lines only when they are those lines each ended by \\n (issue 38: prepare writes them as they are)", async () => {
    const dir = await makeTempDir("casefile-gemini-");
    const file = path.join(dir, "session.jsonl");
    const session = { source: "gemini-cli" as const, sourceSessionId: "s", sourcePath: file, part: null, fileName: "session.jsonl", projectRoot: null, stamp: "" };
    const cases: [string | Buffer, boolean][] = [
      ['{"sessionId":"s"}\n{"id":"u","type":"user","content":"é ✓"}\n\n', true],
      ["", true],
      ['{"sessionId":"s"}\n{"id":"u"', false],
      ['{"sessionId":"s"}\r\n{"id":"u"}\r\n', false],
      ['{"sessionId":"s"}\n{"id":"u","content":"a\u2028b"}\n', false],
      ['{"sessionId":"s"}\n{"id":"u","content":"a\u0085b\fc"}\n', false],
      [Buffer.from([0x7b, 0x7d, 0x0a, 0x22, 0xe2, 0x80, 0x0a]), false],
    ];
    for (const [content, whole] of cases) {
      await fs.writeFile(file, content);
      const bytes = await fs.readFile(file);
      const exported = await geminiSource.exportLines(session);
      expect(exported.lines).toEqual(physicalLines(bytes.toString("utf8")));
      expect(exported.bytes).toEqual(whole ? bytes : undefined);
    }
  });

  it("exports a legacy session as its header without messages, then one line per message", async () => {
    const { gemini } = await makeHome();
    const found = (await geminiSource.discover(gemini)).sessions.find((s) => s.sourcePath.endsWith(".json"))!;
    const { lines, warnings } = await geminiSource.exportLines(found);
    expect(warnings).toEqual([]);
    expect(lines).toHaveLength(7);
    expect(JSON.parse(lines[0]!)).toEqual({
      sessionId: "0b9d3c1e-7a6f-4d2b-9e8c-3f2a1b0c9d8e",
      projectHash: LEGACY_HASH,
      startTime: "2025-11-02T14:00:00.000Z",
      lastUpdated: "2025-11-02T14:03:30.000Z",
      summary: "Rename helper to formatDate",
      kind: "main",
    });
    const original = JSON.parse(readFileSync(path.join(FIXTURES, "legacy.json"), "utf8")) as { messages: unknown[] };
    expect(lines.slice(1).map((l) => JSON.parse(l) as unknown)).toEqual(original.messages);
    // The migrated JSONL copy of the same session reads to the same records.
    const migrated = (await geminiSource.discover(gemini)).sessions.find((s) => s.sourcePath.endsWith("0b9d3c1e.jsonl"))!;
    const a = geminiSource.parseLines(lines, found.fileName);
    const b = geminiSource.parseLines((await geminiSource.exportLines(migrated)).lines, migrated.fileName);
    expect(b.records).toEqual(a.records);
  });

  it("writes U+2028 in a legacy message as an escape, so one message stays one physical line", async () => {
    const dir = await makeTempDir("casefile-gemini-");
    const file = path.join(dir, "session.json");
    await fs.writeFile(file, JSON.stringify({ sessionId: "s", messages: [{ id: "u", type: "user", content: "a\u2028b" }] }));
    const { lines } = await geminiSource.exportLines({ source: "gemini-cli", sourceSessionId: "s", sourcePath: file, part: null, fileName: "session.json.jsonl", projectRoot: null, stamp: "" });
    expect(lines).toEqual(['{"sessionId":"s"}', '{"id":"u","type":"user","content":"a\\u2028b"}']);
    expect(physicalLines(lines.join("\n"))).toHaveLength(2);
  });

  it("gives no lines and a warning for a malformed or vanished legacy file", async () => {
    const dir = await makeTempDir("casefile-gemini-");
    const file = path.join(dir, "bad.json");
    await fs.copyFile(path.join(FIXTURES, "malformed.json"), file);
    const session = { source: "gemini-cli" as const, sourceSessionId: "x", sourcePath: file, part: null, fileName: "bad.json.jsonl", projectRoot: null, stamp: "" };
    const bad = await geminiSource.exportLines(session);
    expect(bad.lines).toEqual([]);
    expect(bad.warnings).toHaveLength(1);
    expect(bad.warnings[0]!.problem).toMatch(/^not valid JSON/);
    await fs.rm(file);
    expect(await geminiSource.exportLines(session)).toEqual({ lines: [], warnings: [{ file, where: "file", problem: "cannot be read" }] });
  });
});

describe("locateChatFile", () => {
  it("reads home, project id and subagent parent from the path", () => {
    expect(locateChatFile("/h/.gemini/tmp/p/chats/session-a.jsonl")).toEqual({ home: "/h/.gemini", projectId: "p", parentSessionId: null });
    expect(locateChatFile("/h/.gemini/tmp/p/chats/parent/child.jsonl")).toEqual({ home: "/h/.gemini", projectId: "p", parentSessionId: "parent" });
    expect(locateChatFile("/h/.gemini/tmp/p/chats/a/b/c.jsonl")).toBeNull();
    expect(locateChatFile("/downloads/session-a.json")).toBeNull();
  });
});

describe("geminiSource.discover of large legacy chats", () => {
  /** legacy.json with its messages repeated past 64 KB, as Gemini CLI writes it (two-space JSON). */
  const large = (): string => {
    const legacy = JSON.parse(readFileSync(path.join(FIXTURES, "legacy.json"), "utf8")) as { messages: unknown[] };
    const messages: unknown[] = [];
    while (JSON.stringify(messages).length < 80_000) messages.push(...legacy.messages);
    return JSON.stringify({ ...legacy, messages }, null, 2);
  };

  it("reads the identity from the head; a message malformed further on is found by exportLines, a file cut short at discovery", async () => {
    const gemini = path.join(await makeTempDir("casefile-gemini-"), ".gemini");
    const chats = path.join(gemini, "tmp", LEGACY_HASH, "chats");
    await fs.mkdir(chats, { recursive: true });
    await fs.mkdir(path.join(gemini, "history", "legacy-app"), { recursive: true });
    await fs.writeFile(path.join(gemini, "history", "legacy-app", ".project_root"), "/work/legacy-app\n");
    const text = large();
    const middle = text.indexOf('"type": "gemini"', text.length / 2);
    await fs.writeFile(path.join(chats, "session-2025-11-02T14-00-0b9d3c1e.json"), `${text.slice(0, middle)}"type": gemini"${text.slice(middle + '"type": "gemini"'.length)}`);
    await fs.writeFile(path.join(chats, "session-2025-11-02T15-00-cut00000.json"), text.slice(0, 70_000));
    const { sessions, warnings } = await geminiSource.discover(gemini);
    expect(sessions.map((s) => [path.basename(s.sourcePath), s.sourceSessionId, s.projectRoot])).toEqual([["session-2025-11-02T14-00-0b9d3c1e.json", "0b9d3c1e-7a6f-4d2b-9e8c-3f2a1b0c9d8e", "/work/legacy-app"]]);
    expect(warnings.map((w) => [path.basename(w.file), w.problem.replace(/JSON \(.*\)/, "JSON (…)")])).toEqual([["session-2025-11-02T15-00-cut00000.json", "not valid JSON (…); skipped"]]);
    const exported = await geminiSource.exportLines(sessions[0]!);
    expect(exported.lines).toEqual([]);
    expect(exported.warnings[0]!.problem).toMatch(/^not valid JSON/);
  });

  it("reads a large chat whose keys come in another order whole, as before", async () => {
    const gemini = path.join(await makeTempDir("casefile-gemini-"), ".gemini");
    const chats = path.join(gemini, "tmp", "p", "chats");
    await fs.mkdir(chats, { recursive: true });
    const { messages, ...header } = JSON.parse(large()) as Record<string, unknown>;
    await fs.writeFile(path.join(chats, "session-x.json"), JSON.stringify({ messages, ...header }, null, 2));
    const { sessions, warnings } = await geminiSource.discover(gemini);
    expect(sessions.map((s) => s.sourceSessionId)).toEqual(["0b9d3c1e-7a6f-4d2b-9e8c-3f2a1b0c9d8e"]);
    expect(warnings).toEqual([]);
  });
});
