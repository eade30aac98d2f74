/** Tests of StagedCopies and copyIfChanged. */
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

import { makeTempDir } from "@/lib/testing/shared";
import { copyIfChanged, StagedCopies } from "@/lib/workspace/copy";

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await fs.rm(d, { recursive: true, force: true });
});

async function setup(): Promise<{ dir: string; source: string; staging: StagedCopies; stagingDir: string }> {
  const dir = await makeTempDir("casefile-copy-");
  dirs.push(dir);
  const source = path.join(dir, "src.jsonl");
  await fs.writeFile(source, '{"a":1}\n{"b":2}\n');
  const stagingDir = path.join(dir, "ws", ".staging");
  return { dir, source, staging: new StagedCopies(stagingDir), stagingDir };
}

describe("StagedCopies + copyIfChanged (copies started during analysis, issue 13)", () => {
  it("moves a still-current staged copy in place, with the source's bytes and mtime", async () => {
    const { dir, source, staging, stagingDir } = await setup();
    staging.stage(source);
    const target = path.join(dir, "ws", "sessions", "s.jsonl");
    expect(await copyIfChanged(source, target, staging)).toBe(1);
    expect(await fs.readFile(target, "utf8")).toBe(await fs.readFile(source, "utf8"));
    expect(Math.abs((await fs.stat(target)).mtimeMs - (await fs.stat(source)).mtimeMs)).toBeLessThan(1);
    expect(await fs.readdir(stagingDir)).toEqual([]);
    await staging.dispose();
    expect(existsSync(stagingDir)).toBe(false);
  });

  it("copies the source afresh when it changed after staging", async () => {
    const { dir, source, staging } = await setup();
    staging.stage(source);
    await staging.take("/nowhere", { size: 0, mtimeMs: 0 }); // unknown source: nothing staged
    await new Promise((r) => setTimeout(r, 5));
    await fs.appendFile(source, '{"c":3}\n');
    await fs.utimes(source, 1_000_000, 2_000_000);
    const target = path.join(dir, "ws", "s.jsonl");
    expect(await copyIfChanged(source, target, staging)).toBe(1);
    expect(await fs.readFile(target, "utf8")).toBe('{"a":1}\n{"b":2}\n{"c":3}\n');
    await staging.dispose();
  });

  it("dispose removes copies that were never used", async () => {
    const { source, staging, stagingDir } = await setup();
    staging.stage(source);
    await staging.dispose();
    expect(existsSync(stagingDir)).toBe(false);
  });
});
