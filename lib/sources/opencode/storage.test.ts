import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { jsonLine } from "@/lib/sources/common/agent-source";
import { tally } from "@/lib/sources/opencode/__fixtures__/tally";
import { opencodeSource } from "@/lib/sources/opencode/source";
import { makeTempDir } from "@/lib/testing/shared";

const HOME = path.join(__dirname, "__fixtures__", "storage-home");
const STORAGE = path.join(HOME, "storage");
const SESSION_FILE = path.join(STORAGE, "session", "prj_old", "ses_old0001.json");
const BAD_SESSION = path.join(STORAGE, "session", "prj_old", "ses_bad0001.json");

const temps: string[] = [];
afterEach(async () => {
  for (const dir of temps.splice(0)) await fs.rm(dir, { recursive: true, force: true });
});

describe("storage/ JSON files (OpenCode before the database)", () => {
  it("discovers the session from the data folder, the storage folder or the session file; a malformed session file is a warning", async () => {
    for (const root of [HOME, STORAGE]) {
      const { sessions, warnings } = await opencodeSource.discover(root);
      expect(sessions.map((s) => [s.sourceSessionId, s.sourcePath, s.part, s.fileName, s.projectRoot])).toEqual([
        ["ses_old0001", SESSION_FILE, "ses_old0001", "ses_old0001.jsonl", "/work/old"],
      ]);
      expect(sessions[0]!.stamp).toMatch(/^files:10:\d+:[\d.]+$/);
      expect(warnings).toEqual([{ file: BAD_SESSION, where: "whole file", problem: "not a JSON object (malformed or half-written)" }]);
    }
    const single = await opencodeSource.discover(SESSION_FILE);
    expect(single.sessions.map((s) => s.sourceSessionId)).toEqual(["ses_old0001"]);
    expect(single.warnings).toEqual([]);
  });

  it("changes the stamp when a part file is added", async () => {
    const home = await makeTempDir("casefile-opencode-storage-");
    temps.push(home);
    await fs.cp(STORAGE, path.join(home, "storage"), { recursive: true });
    const before = (await opencodeSource.discover(home)).sessions[0]!.stamp;
    await fs.writeFile(path.join(home, "storage", "part", "msg_o03", "prt_o03b.json"), JSON.stringify({ id: "prt_o03b", type: "text", text: "more" }));
    expect((await opencodeSource.discover(home)).sessions[0]!.stamp).not.toBe(before);
  });

  it("exports each file's object as one line, messages by id with their parts; malformed files left out with warnings", async () => {
    const [session] = (await opencodeSource.discover(STORAGE)).sessions;
    const { lines, warnings } = await opencodeSource.exportLines(session!);
    const object = async (rel: string) => jsonLine(JSON.parse(await fs.readFile(path.join(STORAGE, rel), "utf8")));
    expect(lines).toEqual([
      await object("session/prj_old/ses_old0001.json"),
      await object("message/ses_old0001/msg_o01.json"),
      await object("part/msg_o01/prt_o01a.json"),
      await object("message/ses_old0001/msg_o02.json"),
      await object("part/msg_o02/prt_o02a.json"),
      await object("message/ses_old0001/msg_o03.json"),
      await object("part/msg_o03/prt_o03a.json"),
      await object("part/msg_o04/prt_o04a.json"),
    ]);
    expect(warnings.map((w) => [path.relative(STORAGE, w.file), w.where])).toEqual([
      ["part/msg_o02/prt_o02b.json", "whole file"],
      ["message/ses_old0001/msg_o04.json", "whole file"],
    ]);
  });

  it("reads the session: tokens of an old version (0.9.0) counted per provider", async () => {
    const [session] = (await opencodeSource.discover(STORAGE)).sessions;
    const transcript = opencodeSource.parseLines((await opencodeSource.exportLines(session!)).lines, session!.fileName);
    expect(tally(transcript)).toEqual({
      records: 8,
      turns: 1,
      toolCalls: 1,
      errorLines: [],
      triggerLines: [2],
      // openai: 5000 input included its 4000 cache reads → 1000 fresh; anthropic: 30 was fresh already
      usage: { entries: 2, input: 1030, output: 120, cacheRead: 8500, cacheWrite: 200, reasoning: 0, costUsd: 0.03 },
    });
    expect(transcript.records[3]!.usage[0]).toMatchObject({ model: "gpt-4.1", input: 1000, cacheRead: 4000 });
    expect(transcript.records[4]!.headline).toBe("Grep foo");
    expect(transcript.records[4]!.calls[0]!.files).toEqual(["/work/old"]);
    expect(transcript.title).toBe("Rename foo to bar");
  });

  it("has no sessions and no warnings where OpenCode never wrote", async () => {
    expect(await opencodeSource.discover(path.join(HOME, "nothing-here"))).toEqual({ sessions: [], warnings: [] });
  });
});
