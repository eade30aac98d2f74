/** Tests of listDir. */
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { listDir, readDirNames } from "@/lib/fs/list-dir";
import { makeTempDir } from "@/lib/testing/shared";

describe("listDir", () => {
  it("lists names sorted, by type and filter; none (or null) for a folder that cannot be read", async () => {
    const dir = await makeTempDir("casefile-list-dir-");
    for (const name of ["b.json", "a.json", "c.txt"]) await fs.writeFile(path.join(dir, name), "");
    await fs.mkdir(path.join(dir, "sub.json"));
    expect(await listDir(dir)).toEqual(["a.json", "b.json", "c.txt", "sub.json"]);
    expect(await listDir(dir, { type: "file", filter: (n) => n.endsWith(".json") })).toEqual(["a.json", "b.json"]);
    expect(await listDir(dir, { type: "dir" })).toEqual(["sub.json"]);
    expect(await listDir(path.join(dir, "missing"))).toEqual([]);
    expect(await readDirNames(path.join(dir, "missing"))).toBeNull();
    expect(await readDirNames(path.join(dir, "a.json"))).toBeNull();
  });
});
