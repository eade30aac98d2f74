/** Where the audit ledger's files live and which segments exist. */
import path from "node:path";

import { listDir, listDirSync } from "@/lib/fs/list-dir";
import { AUDIT_DIR, configPath } from "@/lib/fs/workspace-layout";

/*
 * The one module that knows where the audit ledger lives (seed 002 layout, contract §4.1):
 *
 *   <workspace>/audit/
 *     traces/tool-traces.jsonl            active append file
 *     traces/tool-traces.jsonl.lock       writers' lock (lib/fs/file-lock)
 *     traces/tool-traces.00000001.jsonl   rotated segments, 8-digit, in order
 *     traces/tool-traces.head.json        the chain's head (lib/ledger/head.ts, issue 26), and
 *     traces/tool-traces.head.b.json      its second slot (the two are written in turn)
 *     pruned.jsonl                        blobs removed by retention (lib/ledger/retention.ts)
 *     inputs/<sha256>                     content-addressed input and output blobs
 *
 * The blob retention settings (size cap, default age) are configuration:
 * `<workspace>/.casefile-config/retention.json`.
 *
 * `audit/` sits beside `projects/` and `.casefile/`, which `prepare --force` deletes; the ledger
 * is never among them (lib/workspace/prepare.ts clears only projects, metadata.json, .casefile).
 */

/** The ledger's directory name under the workspace root. */
export const LEDGER_DIR = AUDIT_DIR;

const ACTIVE = "tool-traces.jsonl";
const SEGMENT = /^tool-traces\.(\d{8})\.jsonl$/;

/** Absolute paths of one workspace's ledger. */
export type LedgerPaths = { root: string; tracesDir: string; active: string; head: string; headSlots: readonly [string, string]; inputsDir: string; pruned: string; retention: string };

/** The ledger paths of a workspace (absolute `workspaceRoot`). */
export function ledgerPaths(workspaceRoot: string): LedgerPaths {
  const root = path.join(workspaceRoot, LEDGER_DIR);
  const tracesDir = path.join(root, "traces");
  return { root, tracesDir, active: path.join(tracesDir, ACTIVE), head: path.join(tracesDir, "tool-traces.head.json"), headSlots: [path.join(tracesDir, "tool-traces.head.json"), path.join(tracesDir, "tool-traces.head.b.json")], inputsDir: path.join(root, "inputs"), pruned: path.join(root, "pruned.jsonl"), retention: configPath(workspaceRoot, "retention.json") };
}

/** The file name of segment `n` (`tool-traces.00000001.jsonl`). */
export const segmentName = (n: number): string => `tool-traces.${String(n).padStart(8, "0")}.jsonl`;

/** The file name of the active append file. */
export const ACTIVE_NAME = ACTIVE;

/** Segment numbers present, ascending (a missing traces dir has none). */
export async function listSegments(paths: LedgerPaths): Promise<number[]> {
  return segmentNumbers(await listDir(paths.tracesDir));
}

/** {@link listSegments}, synchronously (the writer's head rebuild and rotation, under the ledger's lock). */
export function listSegmentsSync(paths: LedgerPaths): number[] {
  return segmentNumbers(listDirSync(paths.tracesDir));
}

function segmentNumbers(names: readonly string[]): number[] {
  return names.flatMap((n) => {
    const m = SEGMENT.exec(n);
    return m ? [Number(m[1])] : [];
  }).sort((a, b) => a - b);
}

/** `inputs/<hash>`: the blob reference recorded in entries (relative to the ledger root). */
export const blobRef = (hash: string): string => `inputs/${hash}`;

/** The absolute path of a blob. */
export const blobPath = (paths: LedgerPaths, hash: string): string => path.join(paths.inputsDir, hash);
