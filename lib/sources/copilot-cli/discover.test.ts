import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { physicalLines } from "@/lib/jsonl/text-lines";
import { copilotDefaultRoots, discoverCopilotSessions } from "@/lib/sources/copilot-cli/discover";
import { exportCopilotLines } from "@/lib/sources/copilot-cli/export-lines";
import { copilotSource } from "@/lib/sources/copilot-cli/source";
import { makeTempDir } from "@/lib/testing/shared";

const STATE = fileURLToPath(new URL("./__fixtures__/session-state", import.meta.url));
const RESUMED = "5f0c2a7e-3b1d-4c8e-9a6f-1d2e3f4a5b6c";
const HALF_WRITTEN = "9d8e7f60-1a2b-4c3d-8e4f-5a6b7c8d9e0f";

/** An environment with only `vars` set (ProcessEnv's declared NODE_ENV is irrelevant here). */
const env = (vars: Record<string, string>) => vars as NodeJS.ProcessEnv;

describe("copilotDefaultRoots", () => {
  it("is ~/.copilot/session-state, or $COPILOT_HOME/session-state", () => {
    expect(copilotDefaultRoots("/home/ann", env({}))).toEqual(["/home/ann/.copilot/session-state"]);
    expect(copilotDefaultRoots("/home/ann", env({ COPILOT_HOME: "/data/copilot" }))).toEqual(["/data/copilot/session-state"]);
    expect(copilotDefaultRoots("/home/ann", env({ COPILOT_HOME: " " }))).toEqual(["/home/ann/.copilot/session-state"]);
  });
});

describe("discoverCopilotSessions", () => {
  it("finds each session folder of a session-state root, with its project root", async () => {
    const { sessions, warnings } = await discoverCopilotSessions(STATE);
    expect(warnings).toEqual([]);
    expect(sessions.map(({ stamp: _stamp, ...s }) => s)).toEqual([
      {
        source: "copilot-cli",
        sourceSessionId: RESUMED,
        sourcePath: path.join(STATE, RESUMED, "events.jsonl"),
        part: null,
        fileName: `${RESUMED}.jsonl`,
        projectRoot: "/home/dev/shop", // context.gitRoot, not the cwd /home/dev/shop/api
      },
      {
        source: "copilot-cli",
        sourceSessionId: HALF_WRITTEN,
        sourcePath: path.join(STATE, HALF_WRITTEN, "events.jsonl"),
        part: null,
        fileName: `${HALF_WRITTEN}.jsonl`,
        projectRoot: "/tmp/scratch", // no gitRoot: the cwd
      },
    ]);
    const stat = await fs.stat(path.join(STATE, RESUMED, "events.jsonl"));
    expect(sessions[0]!.stamp).toBe(`${stat.size}:${stat.mtimeMs}`);
  });

  it("accepts one session folder, one events.jsonl, or the .copilot folder as the root", async () => {
    const folder = await discoverCopilotSessions(path.join(STATE, RESUMED));
    const file = await discoverCopilotSessions(path.join(STATE, HALF_WRITTEN, "events.jsonl"));
    expect(folder.sessions.map((s) => s.sourceSessionId)).toEqual([RESUMED]);
    expect(file.sessions.map((s) => s.sourceSessionId)).toEqual([HALF_WRITTEN]);

    const home = await makeTempDir("casefile-copilot-");
    await fs.cp(STATE, path.join(home, ".copilot", "session-state"), { recursive: true });
    const dotCopilot = await discoverCopilotSessions(path.join(home, ".copilot"));
    expect(dotCopilot.sessions.map((s) => s.sourceSessionId)).toEqual([RESUMED, HALF_WRITTEN]);
  });

  it("skips folders without events and empty files, and warns about a missing root or a file that is not JSONL", async () => {
    const root = await makeTempDir("casefile-copilot-");
    await fs.mkdir(path.join(root, "0b1c2d3e-0000-4000-8000-000000000000")); // left by a resume, no events.jsonl
    await fs.mkdir(path.join(root, "1b1c2d3e-0000-4000-8000-000000000000"));
    await fs.writeFile(path.join(root, "1b1c2d3e-0000-4000-8000-000000000000", "events.jsonl"), "");
    await fs.writeFile(path.join(root, "stray.txt"), "not a session");
    expect(await discoverCopilotSessions(root)).toEqual({ sessions: [], warnings: [] });

    const missing = path.join(root, "nope");
    expect(await discoverCopilotSessions(missing)).toEqual({ sessions: [], warnings: [{ file: missing, where: "root", problem: "source root does not exist" }] });
    const stray = path.join(root, "stray.txt");
    expect((await discoverCopilotSessions(stray)).warnings).toEqual([{ file: stray, where: "root", problem: "not a .jsonl events file" }]);
  });

  it("takes the session id from session.start when the folder is not named by it, and warns when there is none", async () => {
    const root = await makeTempDir("casefile-copilot-");
    await fs.mkdir(path.join(root, "backup"));
    await fs.writeFile(
      path.join(root, "backup", "events.jsonl"),
      `${JSON.stringify({ type: "session.start", data: { sessionId: "abc/def", context: { cwd: "relative/dir" } } })}\n`,
    );
    await fs.mkdir(path.join(root, "headless"));
    await fs.writeFile(
      path.join(root, "headless", "events.jsonl"),
      `not json\n${JSON.stringify({ type: "session.resume", data: { context: { cwd: "/srv/app", gitRoot: "/srv" } } })}\n`,
    );
    const { sessions, warnings } = await discoverCopilotSessions(root);
    expect(sessions.map((s) => [s.sourceSessionId, s.fileName, s.projectRoot])).toEqual([
      ["abc/def", "abc_def.jsonl", null], // a relative cwd is no project root
      ["headless", "headless.jsonl", "/srv"],
    ]);
    expect(warnings).toEqual([{ file: path.join(root, "headless", "events.jsonl"), where: "head", problem: "no session.start event in the first 256 KiB" }]);
  });


  it("finds a session.start past the head's first read, but none past 256 KiB", async () => {
    const root = await makeTempDir("casefile-copilot-");
    const resume = JSON.stringify({ type: "session.resume", data: { context: { cwd: "/srv/resumed" }, pad: "x".repeat(20_000) } });
    const start = JSON.stringify({ type: "session.start", data: { sessionId: "s1", context: { cwd: "/srv/started" } } });
    const write = async (folder: string, text: string) => {
      await fs.mkdir(path.join(root, folder));
      await fs.writeFile(path.join(root, folder, "events.jsonl"), text);
    };
    // The start line begins inside the first 16 KiB read and ends after it; then one behind 300 KB of resumes.
    await write("late", `${resume}\n${start}\n`);
    await write("later", `${`${resume}\n`.repeat(15)}${start}\n`);
    const { sessions, warnings } = await discoverCopilotSessions(root);
    expect(sessions.map((s) => [s.sourceSessionId, s.projectRoot])).toEqual([
      ["s1", "/srv/started"],
      ["later", "/srv/resumed"], // no start in the first 256 KiB: the first resume's context
    ]);
    expect(warnings.map((w) => `${path.basename(path.dirname(w.file))}: ${w.problem}`)).toEqual(["later: no session.start event in the first 256 KiB"]);
  });
  it("changes the stamp when the CLI appends to the file", async () => {
    const root = await makeTempDir("casefile-copilot-");
    await fs.cp(path.join(STATE, HALF_WRITTEN), path.join(root, HALF_WRITTEN), { recursive: true });
    const before = (await discoverCopilotSessions(root)).sessions[0]!.stamp;
    await fs.appendFile(path.join(root, HALF_WRITTEN, "events.jsonl"), 'ob","arguments":{}}}\n');
    const after = (await discoverCopilotSessions(root)).sessions[0]!;
    expect(after.stamp).not.toBe(before);
    const { lines } = await exportCopilotLines(after);
    expect(copilotSource.parseLines(lines, after.fileName).warnings).toEqual([]);
  });
});

describe("exportCopilotLines", () => {
  it("is the events file's physical lines, unchanged, and parses back to the session's records", async () => {
    for (const uuid of [RESUMED, HALF_WRITTEN]) {
      const [found] = (await discoverCopilotSessions(path.join(STATE, uuid))).sessions;
      const { lines, warnings } = await exportCopilotLines(found!);
      const bytes = await fs.readFile(found!.sourcePath, "utf8");
      expect(warnings).toEqual([]);
      expect(lines).toEqual(physicalLines(bytes));
      expect(lines.join("\n") + (bytes.endsWith("\n") ? "\n" : "")).toBe(bytes);
      expect(copilotSource.parseLines(lines, found!.fileName).records).toHaveLength(lines.length);
    }
  });

  it("gives a warning, not an exception, for a file that went away", async () => {
    const root = await makeTempDir("casefile-copilot-");
    await fs.cp(path.join(STATE, RESUMED), path.join(root, RESUMED), { recursive: true });
    const [found] = (await discoverCopilotSessions(root)).sessions;
    await fs.rm(found!.sourcePath);
    expect(await exportCopilotLines(found!)).toEqual({ lines: [], warnings: [{ file: found!.sourcePath, where: "file", problem: "unreadable events.jsonl: ENOENT" }] });
  });
});
