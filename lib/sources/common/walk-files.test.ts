import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";

import { listFilesRecursive } from "@/lib/sources/common/walk-files";
import { makeTempDir } from "@/lib/testing/shared";

describe("listFilesRecursive", () => {
  it("lists every file of a wide and deep tree once, in POSIX code-point order; a link to a file is listed, a linked folder not entered", async () => {
    const root = await makeTempDir("casefile-walk-");
    const expected: string[] = [];
    // Many folders on several levels (the walk reads a level's folders a few at a time).
    for (let a = 0; a < 12; a++) {
      for (let b = 0; b < 5; b++) {
        const dir = path.join(root, `s${a}`, `m${b}`, b % 2 === 0 ? "deep" : "");
        await fs.mkdir(dir, { recursive: true });
        const file = path.join(dir, `p${b}.json`);
        await fs.writeFile(file, "{}");
        expected.push(file);
      }
    }
    await fs.writeFile(path.join(root, "B.txt"), "");
    await fs.writeFile(path.join(root, "a.txt"), "");
    await fs.symlink(path.join(root, "a.txt"), path.join(root, "link.txt"));
    await fs.symlink(path.join(root, "s0"), path.join(root, "linked-folder"));
    expected.push(path.join(root, "B.txt"), path.join(root, "a.txt"), path.join(root, "link.txt"));
    const listed = await listFilesRecursive(root);
    expect(listed).toEqual([...expected].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y))));
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed.some((f) => f.includes("linked-folder"))).toBe(false);
  });

  it("gives nothing for an empty folder", async () => {
    expect(await listFilesRecursive(await makeTempDir("casefile-walk-"))).toEqual([]);
  });
});
