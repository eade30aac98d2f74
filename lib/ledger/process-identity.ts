/** Which OS process wrote a started entry, and whether that process still runs (crash reconciliation). */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";

import { processWide } from "@/lib/cache/process-wide";
import { pidAlive } from "@/lib/fs/stale-lock";

/*
 * Seed 002 finishes a call as `crashed` only when "the kernel crashes mid-execution": the process
 * that wrote its started entry is gone. Identity is the OS process, never a module or a door: Next
 * loads lib/ once per bundle layer (server actions, route handlers, instrumentation), and a
 * module-level id made each layer take the others' live calls for a dead process's (issue 35).
 *
 * A started entry carries `pid`, `host`, `process_id` (one random id per process, shared by every
 * module copy through lib/cache/process-wide) and, where /proc exists, `process_start`: the boot
 * id and the process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat). That
 * pair names one process for good: another process that later gets the same pid starts later.
 */

/** This process's random id, the same in every copy of this module (lib/cache/process-wide). */
export const PROCESS_ID: string = processWide("ledger:process-id", () => randomUUID());

/** `<boot id>:<start ticks>` of `pid` from /proc, or null where /proc cannot say (not Linux, gone, zombie). */
function procStart(pid: number): { start: string; running: boolean } | null {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // The command name is in parentheses and may hold spaces or parentheses: fields follow the last ')'.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const state = fields[0] ?? "";
  const ticks = fields[19]; // field 22 of the whole line (state is field 3)
  if (!ticks || !/^\d+$/.test(ticks)) return null;
  // A zombie (Z) or dead (X) process has ended: it only waits for its parent to reap it.
  return { start: `${bootId()}:${ticks}`, running: state !== "Z" && state !== "X" };
}

let cachedBootId: string | undefined;
function bootId(): string {
  if (cachedBootId === undefined) {
    try {
      cachedBootId = fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    } catch {
      cachedBootId = "";
    }
  }
  return cachedBootId;
}

/** True where /proc/<pid>/stat describes processes (Linux): starts can be compared. */
const HAS_PROC: boolean = procStart(process.pid) !== null;

/**
 * This process's start as recorded in started entries (`<boot id>:<ticks since boot>`), or
 * undefined where /proc is absent (then `process_id` alone tells this process from an earlier
 * one with the same pid, and another live pid is taken for its writer).
 */
export const PROCESS_START: string | undefined = procStart(process.pid)?.start;

/**
 * The start of the running process `pid` as started entries record it (`<boot id>:<ticks since
 * boot>`), or undefined when no such process runs (a zombie counts as ended) or /proc is absent.
 */
export function processStart(pid: number): string | undefined {
  const found = procStart(pid);
  return found?.running ? found.start : undefined;
}

/** The identity fields every started entry carries (schema.ts `startedEntrySchema`). */
export type ProcessIdentity = { pid: number; host: string; process_id: string; process_start?: string };

/** This process's identity, for a started entry. */
export function processIdentity(): ProcessIdentity {
  return { pid: process.pid, host: os.hostname(), process_id: PROCESS_ID, ...(PROCESS_START !== undefined ? { process_start: PROCESS_START } : {}) };
}

/**
 * True when the process that wrote a started entry can no longer finish it (seed 002's crash):
 * - another host: never (its liveness cannot be checked here);
 * - this pid: gone when the entry names another process start, or (no start recorded) another
 *   `process_id`: an earlier process had our pid. Any module copy or door of this process is us;
 * - another pid: gone when no such process runs (or only its zombie), or when the process now
 *   holding that pid started at another time than the one recorded (the pid was reused).
 * A live writer on this host, in this process or another, is never gone: its calls are in flight.
 */
export function writerIsGone(started: ProcessIdentity): boolean {
  if (started.host !== os.hostname()) return false;
  if (started.pid === process.pid) {
    if (started.process_start !== undefined && PROCESS_START !== undefined) return started.process_start !== PROCESS_START;
    return started.process_id !== PROCESS_ID;
  }
  if (!HAS_PROC) return !pidAlive(started.pid);
  const now = procStart(started.pid);
  if (now === null) return !pidAlive(started.pid); // gone, or /proc hides it (hidepid): ask the kernel
  if (!now.running) return true;
  return started.process_start !== undefined && now.start !== started.process_start;
}
