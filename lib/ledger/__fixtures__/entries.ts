/** Test ledger entries: a started entry of this process (fields overridable), its finished entry, and the pid of a process that has ended. */
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";

import { processIdentity } from "@/lib/ledger/process-identity";
import type { FinishedEntry, StartedEntry } from "@/lib/ledger/schema";

/** The pid of a child process that has already exited. */
export const deadPid = (): number => Number(spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout.toString());

/** A `tool_call_started` entry of this process for `read_session_lines` through the CLI, with `over` applied. */
export function started(over: Partial<StartedEntry> = {}): StartedEntry {
  return {
    schema_version: 1,
    kind: "tool_call_started",
    receipt_id: randomUUID(),
    task_id: "p/S0001",
    tool_name: "read_session_lines",
    door: "cli",
    timestamp: new Date().toISOString(),
    input_hash: "0".repeat(64),
    input_ref: `inputs/${"0".repeat(64)}`,
    scope_enforced: [],
    ...processIdentity(),
    ...over,
  };
}

/** The `tool_call_finished` entry of `s` with `result` (status `ok` for a success, else `invalid`). */
export const finished = (s: StartedEntry, result: FinishedEntry["result"] = "success"): FinishedEntry => ({
  schema_version: 1,
  kind: "tool_call_finished",
  receipt_id: s.receipt_id,
  timestamp: new Date().toISOString(),
  result,
  duration_ms: 3,
  status: result === "success" ? "ok" : "invalid",
  policy_decisions: [{ policy_id: "door.cli", decision: "allow" }],
  artifacts_written: [],
});
