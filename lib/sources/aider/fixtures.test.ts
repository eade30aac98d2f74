import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { afterAll, describe, expect, it } from "vitest";

import { physicalLines } from "@/lib/jsonl/text-lines";
import { aiderSource } from "@/lib/sources/aider/source";
import { figuresOf } from "@/lib/sources/aider/test-figures";
import type { FoundSession } from "@/lib/sources/common/agent-source";
import { makeTempDir } from "@/lib/testing/shared";

// Aider's header times are local: read them in a fixed zone (CET in winter, no DST in these dates).
const savedTz = process.env.TZ;
process.env.TZ = "Europe/Berlin";
afterAll(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

const PROJECTS = fileURLToPath(new URL("./__fixtures__/projects", import.meta.url));
const WEBSHOP = path.join(PROJECTS, "webshop", ".aider.chat.history.md");
const LEGACY = path.join(PROJECTS, "archive", "legacy", ".aider.chat.history.md");

async function readSession(s: FoundSession) {
  const exported = await aiderSource.exportLines(s);
  return { exported, transcript: aiderSource.parseLines(exported.lines, s.fileName) };
}

describe("aiderSource on the fixture projects", () => {
  it("takes as default roots the project folders under the home that hold a history, hidden and dependency folders left out", async () => {
    const home = await makeTempDir();
    for (const dir of ["src/myrepo", "work/a/b/deep", ".hidden/repo", "src/app/node_modules/pkg", "too/deep/one/two/three/four"]) {
      await fs.mkdir(path.join(home, dir), { recursive: true });
      await fs.writeFile(path.join(home, dir, ".aider.chat.history.md"), "# aider chat started at 2026-01-01 10:00:00\n");
    }
    await fs.mkdir(path.join(home, "src/empty"), { recursive: true });
    expect(aiderSource.defaultRoots(home, process.env)).toEqual([path.join(home, "src/myrepo"), path.join(home, "work/a/b/deep")]);
    expect(aiderSource.defaultRoots(path.join(home, "missing"), process.env)).toEqual([]);
    expect(aiderSource).toMatchObject({ name: "aider", label: "Aider" });
  });

  it("finds every run of every history file under a folder of projects", async () => {
    const { sessions, warnings } = await aiderSource.discover(PROJECTS);
    expect(sessions.map((s) => [s.sourceSessionId, s.part, s.fileName])).toEqual([
      ["legacy-L1", "1", "legacy.L1.md"],
      ["legacy-20240115T182005", "3", "legacy.2024-01-15T18-20-05.md"],
      ["legacy-20240115T182005-L14", "14", "legacy.2024-01-15T18-20-05-L14.md"],
      ["webshop-20260302T091530", "2", "webshop.2026-03-02T09-15-30.md"],
      ["webshop-20260302T100000", "49", "webshop.2026-03-02T10-00-00.md"],
      ["webshop-20260302T100500", "51", "webshop.2026-03-02T10-05-00.md"],
      ["webshop-L90", "90", "webshop.L90.md"],
      ["webshop-20260303T080000", "98", "webshop.2026-03-03T08-00-00.md"],
    ]);
    for (const s of sessions) {
      expect(s.source).toBe("aider");
      expect(s.sourcePath).toBe(s.sourceSessionId.startsWith("legacy") ? LEGACY : WEBSHOP);
      expect(s.projectRoot).toBe(path.dirname(s.sourcePath));
      expect(s.stamp).toMatch(/^\d+:[0-9a-f]{32}$/);
    }
    expect(new Set(sessions.map((s) => s.stamp)).size).toBe(8);
    expect(warnings).toEqual([
      { file: LEGACY, where: "lines 1–2", problem: "text before the first run header: read as a run without a start time" },
      { file: WEBSHOP, where: "line 90", problem: 'run header date "2026-02-30 25:61:00" is not YYYY-MM-DD HH:MM:SS: the run is named by its line' },
    ]);
  });

  it("exports each run's physical lines unchanged: together they are the file", async () => {
    const { sessions } = await aiderSource.discover(PROJECTS);
    for (const file of [WEBSHOP, LEGACY]) {
      const all = physicalLines(await fs.readFile(file, "utf8"));
      const runs = sessions.filter((s) => s.sourcePath === file);
      const before = all.slice(0, Number(runs[0]!.part) - 1);
      const exported = (await Promise.all(runs.map((s) => aiderSource.exportLines(s)))).flatMap((e) => e.lines);
      expect([...before, ...exported]).toEqual(all);
    }
    expect(physicalLines(await fs.readFile(WEBSHOP, "utf8"))[0]).toBe("");
  });

  it("reads each run to the exact figures of its lines", async () => {
    const { sessions } = await aiderSource.discover(PROJECTS);
    const figures = Object.fromEntries(await Promise.all(sessions.map(async (s) => [s.sourceSessionId, figuresOf((await readSession(s)).transcript)] as const)));
    const none = { calls: 0, files: [], results: 0, errors: 0, modelChanges: [], input: 0, output: 0, cacheRead: 0, cacheWrite: 0, costUsd: null };
    expect(figures).toEqual({
      "legacy-L1": { ...none, records: 2, turns: 0, startedAt: null, warnings: 1 },
      "legacy-20240115T182005": { ...none, records: 11, turns: 1, modelChanges: ["gpt-4"], input: 1845, output: 12, costUsd: 0.06, startedAt: "2024-01-15T17:20:05.000Z", warnings: 0 },
      "legacy-20240115T182005-L14": { ...none, records: 14, turns: 1, calls: 1, files: ["main.go"], results: 1, errors: 1, input: 2000, output: 150, costUsd: 0.07, startedAt: "2024-01-15T17:20:05.000Z", warnings: 0 },
      "webshop-20260302T091530": {
        records: 47,
        turns: 2,
        calls: 3,
        files: ["src/cart.py", "src/cart.py", "tests/test_cart.py"],
        results: 2,
        errors: 0,
        modelChanges: ["anthropic/claude-3-7-sonnet-20250219"],
        input: 2700,
        output: 412,
        cacheRead: 1100,
        cacheWrite: 8200,
        costUsd: 0.05,
        startedAt: "2026-03-02T08:15:30.000Z",
        warnings: 0,
      },
      "webshop-20260302T100000": { ...none, records: 2, turns: 0, startedAt: "2026-03-02T09:00:00.000Z", warnings: 0 },
      "webshop-20260302T100500": {
        records: 39,
        turns: 3,
        calls: 2,
        files: ["src/tax.py", "src/invoice.py"],
        results: 1,
        errors: 2,
        modelChanges: ["gpt-4o", "o3-mini"],
        input: 1_200_950,
        output: 3488,
        cacheRead: 0,
        cacheWrite: 0,
        costUsd: 3.0242,
        startedAt: "2026-03-02T09:05:00.000Z",
        warnings: 0,
      },
      "webshop-L90": { ...none, records: 8, turns: 1, input: 900, output: 1234, startedAt: null, warnings: 1 },
      "webshop-20260303T080000": { ...none, records: 7, turns: 1, startedAt: "2026-03-03T07:00:00.000Z", warnings: 1 },
    });
  });

  it("gives each usage line its model, and each turn its prompt lines", async () => {
    const { sessions } = await aiderSource.discover(WEBSHOP);
    const { transcript } = await readSession(sessions.find((s) => s.part === "51")!);
    expect(transcript.records.filter((r) => r.usage.length > 0).map((r) => [r.line, r.usage[0]!.model, r.usage[0]!.costUsd])).toEqual([
      [20, "gpt-4o", 3.02],
      [36, "o3-mini", 0.0042],
    ]);
    expect(transcript.turns).toEqual([
      { turn_start_line: 7, turn_end_line: 22 },
      { turn_start_line: 23, turn_end_line: 26 },
      { turn_start_line: 27, turn_end_line: 39 },
    ]);
    const first = await readSession(sessions.find((s) => s.part === "2")!);
    expect(first.transcript.records.filter((r) => r.trigger).map((r) => r.text)).toEqual(["/add src/cart.py", "fix the rounding bug in the cart total"]);
    expect(first.transcript.records[42]).toMatchObject({ line: 43, type: "tool-output", text: "Cost: $0.05 message, $0.05 session." });
  });

  it("warns that the last line has no line break, and reads the half-written report as text", async () => {
    const { sessions } = await aiderSource.discover(WEBSHOP);
    const { exported, transcript } = await readSession(sessions.at(-1)!);
    expect(exported.warnings).toEqual([{ file: WEBSHOP, where: "line 104", problem: "the last line has no line break: Aider may still be writing it" }]);
    expect(exported.lines.at(-1)).toBe("> Tokens: 2.5k sent, 3");
    expect(transcript.warnings).toEqual([{ file: "webshop.2026-03-03T08-00-00.md", where: "line 7", problem: 'token report not understood (half-written?): "Tokens: 2.5k sent, 3"' }]);
    expect(transcript.records[6]).toMatchObject({ role: "tool", text: "Tokens: 2.5k sent, 3", usage: [] });
  });

  it("takes a history file or a project folder as the root", async () => {
    const all = (await aiderSource.discover(PROJECTS)).sessions;
    expect((await aiderSource.discover(WEBSHOP)).sessions).toEqual(all.filter((s) => s.sourcePath === WEBSHOP));
    expect((await aiderSource.discover(path.dirname(LEGACY))).sessions).toEqual(all.filter((s) => s.sourcePath === LEGACY));
  });
});

describe("aiderSource on files written by the test", () => {
  const header = (stamp: string) => `# aider chat started at ${stamp}\n`;

  it("skips node_modules and .git, and reads a renamed history given as the root", async () => {
    const dir = await makeTempDir("aider-");
    for (const sub of ["app", "app/node_modules/pkg", "app/.git", "app/sub/tool"]) {
      await fs.mkdir(path.join(dir, sub), { recursive: true });
      await fs.writeFile(path.join(dir, sub, ".aider.chat.history.md"), `${header("2026-01-01 10:00:00")}#### hi\n`);
    }
    await fs.writeFile(path.join(dir, "app", "notes.md"), `${header("2026-01-01 11:00:00")}#### hi\n`);
    const found = await aiderSource.discover(dir);
    expect(found.sessions.map((s) => [s.sourcePath.slice(dir.length), s.sourceSessionId])).toEqual([
      ["/app/.aider.chat.history.md", "app-20260101T100000"],
      ["/app/sub/tool/.aider.chat.history.md", "tool-20260101T100000"],
    ]);
    expect(found.warnings).toEqual([]);
    const renamed = await aiderSource.discover(path.join(dir, "app", "notes.md"));
    expect(renamed.sessions.map((s) => [s.sourceSessionId, s.fileName, s.projectRoot])).toEqual([["app-20260101T110000", "app.2026-01-01T11-00-00.md", path.join(dir, "app")]]);
  });

  it("warns about a missing root and a file that is not an Aider history", async () => {
    const dir = await makeTempDir("aider-");
    await fs.writeFile(path.join(dir, "README.md"), "# README\n");
    expect(await aiderSource.discover(path.join(dir, "gone"))).toEqual({
      sessions: [],
      warnings: [{ file: path.join(dir, "gone"), where: "source root", problem: "cannot be read (ENOENT)" }],
    });
    expect(await aiderSource.discover(path.join(dir, "README.md"))).toEqual({
      sessions: [],
      warnings: [{ file: path.join(dir, "README.md"), where: "file", problem: 'no "# aider chat started at" header: not an Aider chat history' }],
    });
  });

  it("keeps the stamps of runs an append leaves unchanged, and finds a run that moved by its id", async () => {
    const dir = await makeTempDir("aider-");
    const file = path.join(dir, ".aider.chat.history.md");
    const runs = [`\n${header("2026-01-01 10:00:00")}\n#### one  \n\nok\n`, `\n${header("2026-01-01 11:00:00")}\n#### two  \n\nok\n`];
    await fs.writeFile(file, runs.join(""));
    const before = (await aiderSource.discover(dir)).sessions;
    await fs.appendFile(file, `\n${header("2026-01-01 12:00:00")}\n#### three  \n`);
    const after = (await aiderSource.discover(dir)).sessions;
    expect(after).toHaveLength(3);
    expect(after[0]!.stamp).toBe(before[0]!.stamp);
    // The run that was last gains the blank line Aider writes before the next header.
    expect(after[1]!.stamp).not.toBe(before[1]!.stamp);
    expect((await aiderSource.exportLines(after[1]!)).lines).toEqual(["# aider chat started at 2026-01-01 11:00:00", "", "#### two  ", "", "ok", ""]);

    await fs.writeFile(file, `note\n${runs.join("")}`);
    const moved = await aiderSource.exportLines(before[1]!);
    expect(moved).toEqual({ lines: ["# aider chat started at 2026-01-01 11:00:00", "", "#### two  ", "", "ok"], warnings: [] });
    const gone = await aiderSource.exportLines({ ...before[1]!, sourceSessionId: "x-20990101T000000" });
    expect(gone).toEqual({ lines: [], warnings: [{ file, where: "line 8", problem: "run x-20990101T000000 is no longer in the file" }] });
    await fs.rm(file);
    expect((await aiderSource.exportLines(before[0]!)).warnings).toEqual([{ file, where: "file", problem: "cannot be read (ENOENT)" }]);
  });
});
