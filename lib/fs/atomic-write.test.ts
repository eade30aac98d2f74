/** Tests of writeFileAtomic. */
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { writeFileAtomic } from "@/lib/fs/atomic-write";
import { makeTempDir } from "@/lib/testing/shared";

describe("writeFileAtomic", () => {
  it("writes a string, bytes, or byte chunks in order, replacing the file and leaving no temp file", async () => {
    const dir = await makeTempDir();
    const target = path.join(dir, "sub", "f.bin");
    await writeFileAtomic(target, "first");
    expect(await fs.readFile(target, "utf8")).toBe("first");
    await writeFileAtomic(target, new Uint8Array([1, 2, 3]));
    expect([...(await fs.readFile(target))]).toEqual([1, 2, 3]);
    const big = new Uint8Array(3 << 20).fill(7);
    await writeFileAtomic(target, [new Uint8Array([9]), big, new Uint8Array(0), Buffer.from("end")], { durable: false });
    const back = await fs.readFile(target);
    expect(back.length).toBe(1 + big.length + 3);
    expect(back[0]).toBe(9);
    expect(back[1 + big.length - 1]).toBe(7);
    expect(back.subarray(-3).toString()).toBe("end");
    expect(await fs.readdir(path.dirname(target))).toEqual(["f.bin"]);
  });

  it("writes the chunks of a generator as it makes them, text as UTF-8", async () => {
    const dir = await makeTempDir();
    const target = path.join(dir, "g.json");
    function* pieces() {
      yield "{\"a\":";
      yield Buffer.from("[1,2]");
      yield ",\"é\":\"😀\"}";
    }
    await writeFileAtomic(target, pieces());
    expect(JSON.parse(await fs.readFile(target, "utf8"))).toEqual({ a: [1, 2], é: "😀" });
  });
});
