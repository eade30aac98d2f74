/** Tests of breakIfStale with several breakers. */
import { spawnSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import { afterEach, describe, expect, it, vi } from "vitest";

import { breakIfStale, sweepOrphans } from "@/lib/fs/stale-lock";
import { makeTempDir } from "@/lib/testing/shared";

/*
 * Breaking stale locks when several waiters judge the same dead owner's lock at once (seen
 * under load in the ledger's kill test as "lost the write lock"): breakers are serialized by
 * `<lock>.break`, and a lock is removed only while it still holds the record judged stale.
 */

const deadPid = (): number => Number(spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout.toString());
const record = (pid: number, token: string) => JSON.stringify({ pid, host: os.hostname(), token });

async function lockIn(): Promise<{ dir: string; file: string; lock: string }> {
  const dir = await makeTempDir("casefile-stale-");
  const file = path.join(dir, "tool-traces.jsonl");
  return { dir, file, lock: `${file}.lock` };
}

afterEach(() => vi.restoreAllMocks());

describe("breakIfStale with several breakers", () => {
  it("leaves alone a lock taken anew after it judged the old one stale (another breaker got there first)", async () => {
    const { lock } = await lockIn();
    await fs.writeFile(lock, record(deadPid(), "dead"));
    const live = record(process.pid, "live");
    // Right after this breaker reads the dead owner's record, another breaker removes it and a
    // live writer takes the lock.
    const realStat = fs.stat.bind(fs);
    let raced = false;
    vi.spyOn(fs, "stat").mockImplementation(async (p, ...rest) => {
      if (!raced && p === lock) {
        raced = true;
        await fs.rm(lock);
        await fs.writeFile(lock, live);
      }
      return realStat(p, ...(rest as [])) as never;
    });
    const renames = vi.spyOn(fs, "rename");
    expect(await breakIfStale(lock, "me")).toBe(true);
    expect(raced).toBe(true);
    expect(await fs.readFile(lock, "utf8")).toBe(live);
    // The live lock was never even moved aside (a moved lock is one a fourth writer can take).
    expect(renames.mock.calls.filter(([from]) => from === lock)).toEqual([]);
    await expect(fs.stat(`${lock}.break`)).rejects.toThrow();
  });

  it("waits while another live breaker holds <lock>.break, and clears a break lock whose breaker died", async () => {
    const { file, lock, dir } = await lockIn();
    await fs.writeFile(lock, record(deadPid(), "dead"));
    await fs.writeFile(`${lock}.break`, record(process.pid, "other-breaker"));
    expect(await breakIfStale(lock, "me")).toBe(false);
    expect(await fs.readFile(lock, "utf8")).toContain('"dead"');

    await fs.writeFile(`${lock}.break`, record(deadPid(), "dead-breaker"));
    expect(await breakIfStale(lock, "me")).toBe(false); // clears the dead breaker's lock
    await expect(fs.stat(`${lock}.break`)).rejects.toThrow();
    expect(await breakIfStale(lock, "me")).toBe(true);
    await expect(fs.stat(lock)).rejects.toThrow();

    // A breaker killed mid-take leaves its temp file: swept like the lock's own.
    const orphan = `${lock}.break.${deadPid()}.0123abcd.tmp`;
    await fs.writeFile(orphan, "");
    await sweepOrphans(file);
    expect(await fs.readdir(dir)).toEqual([]);
  });

  it("sweeps a break lock whose breaker died after removing the stale lock, and keeps a live breaker's", async () => {
    const { file, lock, dir } = await lockIn();
    // Killed between removing the lock and its own break lock: no lock is left to break, so only the sweep clears it.
    await fs.writeFile(`${lock}.break`, record(process.pid, "live-breaker"));
    await sweepOrphans(file);
    expect(await fs.readdir(dir)).toEqual([path.basename(`${lock}.break`)]);
    await fs.writeFile(`${lock}.break`, record(deadPid(), "dead-breaker"));
    await sweepOrphans(file);
    expect(await fs.readdir(dir)).toEqual([]);
  });

  it("never breaks a live holder's lock", async () => {
    const { lock } = await lockIn();
    await fs.writeFile(lock, record(process.pid, "live"));
    const old = new Date(Date.now() - 60_000);
    await fs.utimes(lock, old, old);
    expect(await breakIfStale(lock, "me")).toBe(false);
    expect(await fs.readFile(lock, "utf8")).toBe(record(process.pid, "live"));
  });
});
