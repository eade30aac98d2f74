/** Tests of withFileLock: serialized writers, lock age and live holders. */
import { spawnSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { withFileLock } from "@/lib/fs/file-lock";
import { breakIfStale } from "@/lib/fs/stale-lock";
import { makeTempDir } from "@/lib/testing/shared";

/** The pid of a process that has already exited (and been reaped). */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout.toString());
}

async function setup(): Promise<{ card: string; lock: string; dir: string }> {
  const dir = await makeTempDir("casefile-lock-");
  const card = path.join(dir, "S0001.json");
  return { card, lock: `${card}.lock`, dir };
}

describe("withFileLock", () => {
  it("breaks at once a lock whose owner process is dead, and sweeps that writer's temp files", async () => {
    const { card, lock, dir } = await setup();
    const pid = deadPid();
    await fs.writeFile(lock, JSON.stringify({ pid, host: os.hostname(), token: "dead" }));
    await fs.writeFile(path.join(dir, `.S0001.json.${pid}.abcd1234.tmp`), "{torn");
    await fs.writeFile(path.join(dir, `S0001.json.lock.${pid}.00ff.tmp`), "");
    await fs.writeFile(path.join(dir, `.S0001.json.${process.pid}.beef.tmp`), "ours: kept");
    const started = Date.now();
    expect(await withFileLock(card, async () => "ran")).toBe("ran");
    expect(Date.now() - started).toBeLessThan(1_000);
    expect((await fs.readdir(dir)).sort()).toEqual([`.S0001.json.${process.pid}.beef.tmp`]);
  });

  it("waits for a lock held by a live process until it is released", async () => {
    const { card, lock } = await setup();
    await fs.writeFile(lock, JSON.stringify({ pid: process.pid, host: os.hostname(), token: "someone-else" }));
    setTimeout(() => void fs.rm(lock), 150);
    const started = Date.now();
    await withFileLock(card, async () => undefined);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it("breaks a lock of another host only once its mtime is stale", async () => {
    const { card, lock } = await setup();
    await fs.writeFile(lock, JSON.stringify({ pid: 1, host: "another-host.invalid", token: "t" }));
    const old = new Date(Date.now() - 60_000);
    await fs.utimes(lock, old, old);
    await withFileLock(card, async () => undefined);
    await expect(fs.stat(lock)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("runs one holder at a time within the process, in call order", async () => {
    const { card } = await setup();
    const order: string[] = [];
    let inside = 0;
    await Promise.all(
      ["a", "b", "c"].map((name) =>
        withFileLock(card, async () => {
          inside += 1;
          expect(inside).toBe(1);
          order.push(name);
          await new Promise((resolve) => setTimeout(resolve, 10));
          inside -= 1;
        }),
      ),
    );
    expect(order).toEqual(["a", "b", "c"]);
  });

  it("releases the lock when the holder throws", async () => {
    const { card, dir } = await setup();
    await expect(withFileLock(card, async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await fs.readdir(dir)).toEqual([]);
    expect(await withFileLock(card, async () => 1)).toBe(1);
  });
});

describe("lock age and live holders (issue 8 probe)", () => {
  it("never breaks a lock held by a live process on this host, however old its mtime", async () => {
    const { lock } = await setup();
    await fs.writeFile(lock, JSON.stringify({ pid: process.pid, host: os.hostname(), token: "live-holder" }));
    const old = new Date(Date.now() - 3_600_000);
    await fs.utimes(lock, old, old);
    expect(await breakIfStale(lock, "waiter")).toBe(false);
    expect(JSON.parse(await fs.readFile(lock, "utf8")).token).toBe("live-holder");
  });

  it("counts a lock's age from when it was taken, not from when its writer began to wait", async () => {
    const { card, lock } = await setup();
    await fs.writeFile(lock, JSON.stringify({ pid: process.pid, host: os.hostname(), token: "first" }));
    let released = 0;
    let waiting = false;
    const waiter = withFileLock(card, async () => (await fs.stat(lock)).mtimeMs);
    // Release only after the waiter has written its owner record (its temp file) and is waiting.
    for (;;) {
      const names = await fs.readdir(path.dirname(card));
      if (names.some((n) => n.startsWith("S0001.json.lock.") && n.endsWith(".tmp"))) waiting = true;
      if (waiting) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    await new Promise((r) => setTimeout(r, 50));
    released = Date.now();
    await fs.rm(lock);
    expect(await waiter).toBeGreaterThanOrEqual(released - 5);
  });
});
