import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { fileStamp, fileStampOf } from "@/lib/fs/file-stamp";

describe("fileStamp", () => {
  it("is size:mtimeMs, with the inode last when asked (stored stamps keep this format)", () => {
    expect(fileStamp({ size: 12, mtimeMs: 1700000000000.5 })).toBe("12:1700000000000.5");
    expect(fileStamp({ size: 12, mtimeMs: 1700000000000.5, ino: 42 }, { inode: true })).toBe("12:1700000000000.5:42");
  });

  it("stamps a file from one stat, null when it is not there, and moves when the file is replaced", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "file-stamp-"));
    const file = path.join(dir, "a.txt");
    expect(fileStampOf(file)).toBeNull();
    await fs.writeFile(file, "one");
    const st = await fs.stat(file);
    expect(fileStampOf(file)).toBe(`${st.size}:${st.mtimeMs}`);
    expect(fileStampOf(file, { inode: true })).toBe(`${st.size}:${st.mtimeMs}:${st.ino}`);
    // Another file renamed over it is a new version.
    const other = path.join(dir, "b.txt");
    await fs.writeFile(other, "two");
    await fs.utimes(other, st.atime, st.mtime);
    const before = fileStampOf(file, { inode: true });
    await fs.rename(other, file);
    expect(fileStampOf(file, { inode: true })).not.toBe(before);
    await fs.rm(dir, { recursive: true, force: true });
  });
});
