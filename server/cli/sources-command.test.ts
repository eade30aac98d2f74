/** Tests of `casefile sources` with machines (issue 39). */
import fs from "node:fs/promises";
import path from "node:path";

import { afterEach, describe, expect, it, vi } from "vitest";

import { makeTempDir } from "@/lib/testing/shared";
import { readSources } from "@/lib/workspace/sources";
import { runSources } from "@/server/cli/sources-command";

afterEach(() => {
  vi.restoreAllMocks();
});

async function printed(run: () => Promise<number>): Promise<string> {
  let out = "";
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => ((out += String(chunk)), true));
  expect(await run()).toBe(0);
  vi.restoreAllMocks();
  return out;
}

describe("casefile sources add --machine (issue 39)", () => {
  it("records the machine of the roots it adds and lists it; roots added without one stay the local machine's", async () => {
    const workspace = await makeTempDir("casefile-sources-cli-");
    const mine = path.join(await makeTempDir("casefile-sources-mine-"), "projects");
    const theirs = path.join(await makeTempDir("casefile-sources-theirs-"), "projects");
    await fs.mkdir(mine, { recursive: true });
    await fs.mkdir(theirs, { recursive: true });
    await printed(() => runSources("add", undefined, { workspace, claude: [mine], json: false }));
    const listed = await printed(() => runSources("add", undefined, { workspace, claude: [theirs], machine: "build-box", json: false }));
    expect(listed).toContain(`${theirs}  (machine build-box)`);
    expect(listed).toMatch(new RegExp(`${mine.replaceAll("/", "\\/")}\\n`));
    expect((await readSources(workspace))?.machines).toEqual({ [theirs]: "build-box" });
    await expect(runSources("add", undefined, { workspace, claude: [theirs], machine: "no/slash", json: false })).rejects.toThrow(/not a machine name/);
  });
});
