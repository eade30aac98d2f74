import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import { describe, expect, it, vi } from "vitest";

import { deadPid, started } from "@/lib/ledger/__fixtures__/entries";
import { Ledger } from "@/lib/ledger/ledger-store";
import { PROCESS_ID, processIdentity, processStart, writerIsGone } from "@/lib/ledger/process-identity";
import { reconcileOrphans } from "@/lib/ledger/reconcile";

/*
 * Issue 35 item 2: a call is `crashed` only when the OS process that wrote its started entry is
 * gone (seed 002 "if the kernel crashes mid-execution"), never because another door or another
 * copy of the ledger's modules (Next loads lib/ once per bundle layer) does not know it.
 */

const HAS_PROC = existsSync(`/proc/${process.pid}/stat`);
const tempLedger = async (): Promise<Ledger> => new Ledger(await fs.mkdtemp(path.join(os.tmpdir(), "casefile-identity-")));

/** A node process that runs until killed, and its exit. */
function liveChild() {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  return { child, exited: new Promise<void>((resolve) => child.on("exit", () => resolve())) };
}

describe("process identity of started entries", () => {
  it("every copy of the ledger's modules in one process is the same writer: a fresh copy's reconciliation leaves this process's calls alone", async () => {
    const ledger = await tempLedger();
    const mine = started(); // this process's identity, from this copy of the modules
    await ledger.append([mine]);
    vi.resetModules();
    const fresh = await import("@/lib/ledger/process-identity");
    const freshReconcile = await import("@/lib/ledger/reconcile");
    expect(fresh.PROCESS_ID).toBe(PROCESS_ID);
    expect(fresh.processIdentity()).toEqual(processIdentity());
    expect(fresh.writerIsGone(mine)).toBe(false);
    expect(await freshReconcile.reconcileOrphans(ledger)).toEqual([]);
    expect((await ledger.read()).receipts.get(mine.receipt_id)!.finished).toBeUndefined();
  });

  it("records the process's start where /proc exists, and tells an earlier process that had this pid from this one", () => {
    if (HAS_PROC) expect(processIdentity().process_start).toMatch(/^[0-9a-f-]*:\d+$/);
    expect(writerIsGone(started())).toBe(false);
    // Same pid, another start: an earlier process (a restart that got the same pid).
    if (HAS_PROC) expect(writerIsGone(started({ process_start: "another-boot:1" }))).toBe(true);
    // An entry without a start (older writers) is told apart by process_id.
    expect(writerIsGone({ ...processIdentity(), process_start: undefined })).toBe(false);
    expect(writerIsGone({ pid: process.pid, host: os.hostname(), process_id: "an-earlier-process" })).toBe(true);
  });

  it("a call of another live process is in flight, never crashed; once that process is killed the next reconciliation finishes it as crashed", async () => {
    const ledger = await tempLedger();
    const { child, exited } = liveChild();
    try {
      const pid = child.pid!;
      if (HAS_PROC) await vi.waitFor(() => expect(processStart(pid)).toBeDefined());
      const theirs = started({ pid, process_id: "the-child", process_start: processStart(pid) });
      await ledger.append([theirs]);
      expect(writerIsGone(theirs)).toBe(false);
      expect(await reconcileOrphans(ledger)).toEqual([]);
      child.kill("SIGKILL");
      await exited;
      expect(writerIsGone(theirs)).toBe(true);
      expect(await reconcileOrphans(ledger)).toEqual([theirs.receipt_id]);
      expect((await ledger.read()).receipts.get(theirs.receipt_id)!.finished).toMatchObject({ result: "crashed", duration_ms: 0 });
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("a started entry with the identity of a process that no longer exists is reconciled as crashed", async () => {
    const ledger = await tempLedger();
    const gone = started({ pid: deadPid(), process_id: "gone", process_start: "boot:12345" });
    await ledger.append([gone]);
    expect(await reconcileOrphans(ledger)).toEqual([gone.receipt_id]);
  });

  it.skipIf(!HAS_PROC)("a pid now held by a later process (another start than recorded) is gone; so is a zombie", async () => {
    const { child, exited } = liveChild();
    try {
      expect(writerIsGone(started({ pid: child.pid!, process_id: "earlier", process_start: "boot:1" }))).toBe(true);
    } finally {
      child.kill("SIGKILL");
      await exited;
    }
    // `sleep 0.05` exits while its parent (sh exec'd into sleep 5) never reaps it: a zombie.
    const sh = spawn("sh", ["-c", "sleep 0.05 & echo $!; exec sleep 5"], { stdio: ["ignore", "pipe", "ignore"] });
    try {
      const zombie = Number(await new Promise<string>((resolve) => sh.stdout!.once("data", (d: Buffer) => resolve(d.toString()))));
      await vi.waitFor(() => expect(readFileSync(`/proc/${zombie}/stat`, "utf8")).toMatch(/\) Z /));
      expect(writerIsGone(started({ pid: zombie, process_id: "zombie" }))).toBe(true);
    } finally {
      sh.kill("SIGKILL");
    }
  });

  it("a writer on another host is never judged (its liveness cannot be checked here)", () => {
    expect(writerIsGone(started({ host: `${os.hostname()}-elsewhere`, pid: deadPid(), process_id: "gone" }))).toBe(false);
  });
});
