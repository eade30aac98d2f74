import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { opencodeSource } from "@/lib/sources/opencode/source";
import { makeTempDir } from "@/lib/testing/shared";

const env = (vars: Record<string, string>) => vars as NodeJS.ProcessEnv;

describe("defaultRoots", () => {
  it("is $OPENCODE_DATA_DIR, else opencode under $XDG_DATA_HOME, else ~/.local/share/opencode", () => {
    expect(opencodeSource.defaultRoots("/home/u", env({ OPENCODE_DATA_DIR: "/data/oc" }))).toEqual(["/data/oc"]);
    expect(opencodeSource.defaultRoots("/home/u", env({ XDG_DATA_HOME: "/xdg" }))).toEqual([path.join("/xdg", "opencode")]);
    expect(opencodeSource.defaultRoots("/home/u", env({ XDG_DATA_HOME: "relative" }))).toEqual([path.join("/home/u", ".local", "share", "opencode")]);
    expect(opencodeSource.defaultRoots("/home/u", env({}))).toEqual([path.join("/home/u", ".local", "share", "opencode")]);
  });
});

describe("discover on roots that are not OpenCode's", () => {
  let dir = "";
  afterEach(async () => {
    if (dir !== "") await fs.rm(dir, { recursive: true, force: true });
  });

  it("reports a file that is neither a database nor a session file, and finds nothing in an unrelated folder", async () => {
    dir = await makeTempDir("casefile-opencode-roots-");
    const notes = path.join(dir, "notes.txt");
    await fs.writeFile(notes, "hello");
    expect(await opencodeSource.discover(notes)).toEqual({
      sessions: [],
      warnings: [{ file: notes, where: "whole file", problem: "not an OpenCode database or session file" }],
    });
    expect(await opencodeSource.discover(dir)).toEqual({ sessions: [], warnings: [] });
  });
});
