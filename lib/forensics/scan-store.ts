/** Forensics scans persisted under `.casefile/forensics/` and read back by file version. */
import { createHash } from "node:crypto";
import fs from "node:fs/promises";

import type { CoreContext } from "@/lib/context";
import type { SessionScan, SessionStats } from "@/lib/forensics/scan";
import { writeFileAtomic } from "@/lib/fs/atomic-write";
import { setAsideDerived } from "@/lib/fs/set-aside";
import type { SessionFile } from "@/lib/workspace/sessions";
import { derivedPath } from "@/lib/fs/workspace-layout";

/**
 * Bump when the scan's meaning changes (classification here or in lib/sources' record
 * classifiers, ordering, stats): stored scans of an older version are ignored and rebuilt.
 * (`.casefile` is derived data: deleting `.casefile/forensics` is always safe too.)
 */
export const SCAN_STORE_VERSION = 6;

/** `<workspace>/.casefile/forensics/<sha256(session key)>.scan`: this module's only place on disk. */
function scanFile(ctx: CoreContext, key: string): string {
  return derivedPath(ctx.workspaceRoot, "forensics", `${createHash("sha256").update(key).digest("hex")}.scan`);
}

type Header = { version: number; stamp: string; count: number; source: string; types: string[]; stats: Record<string, unknown> };

/** Maps in {@link SessionStats}, stored as entry lists. */
const MAP_FIELDS = ["byTool", "families", "errorCounts", "warningCounts", "subagentTypes"] as const;

/**
 * The stored scan of a session when its stamp (every file's size and mtime, the turn count)
 * and {@link SCAN_STORE_VERSION} match, else null (missing, stale, or unreadable: never throws).
 * A stored scan that is corrupt or cut short is set aside with a warning through `ctx.log`
 * (issue 35); one of another version or stamp is only stale (the next store replaces it).
 * `files` are the session's current files, in the order the scan was built with.
 */
export async function loadStoredScan(ctx: CoreContext, key: string, stamp: string, files: SessionFile[]): Promise<SessionScan | null> {
  const file = scanFile(ctx, key);
  let data: Buffer;
  try {
    data = await fs.readFile(file);
  } catch {
    return null;
  }
  const corrupt = () => {
    setAsideDerived(file, "corrupt", "is not a valid forensics scan (corrupt or truncated)", ctx.log);
    return null;
  };
  try {
    const headerBytes = data.readUInt32LE(0);
    const header = JSON.parse(data.toString("utf8", 4, 4 + headerBytes)) as Header;
    if (header.version !== SCAN_STORE_VERSION || header.stamp !== stamp) return null;
    const n = header.count;
    let at = align8(4 + headerBytes);
    if (data.length !== at + 2 * align8(n * 8) + 3 * align8(n * 4) + align8(n * 2) + align8(n)) return corrupt();
    // Arrays are copied out of the file buffer: aligned, and independent of it.
    const take = <T>(bytes: number, make: (b: ArrayBuffer) => T): T => {
      const copy = new Uint8Array(bytes);
      copy.set(data.subarray(at, at + bytes));
      at += align8(bytes);
      return make(copy.buffer);
    };
    const ts = take(n * 8, (b) => new Float64Array(b));
    const sortKey = take(n * 8, (b) => new Float64Array(b));
    const fileIndex = take(n * 4, (b) => new Uint32Array(b));
    const line = take(n * 4, (b) => new Uint32Array(b));
    const order = take(n * 4, (b) => new Uint32Array(b));
    const typeId = take(n * 2, (b) => new Uint16Array(b));
    const actorId = take(n, (b) => new Uint8Array(b));
    const stats = { ...header.stats } as Record<string, unknown>;
    for (const field of MAP_FIELDS) stats[field] = new Map(stats[field] as [string, unknown][]);
    return { source: header.source, files, count: n, ts, fileIndex, line, typeId, actorId, types: header.types, order, sortKey, stats: stats as SessionStats };
  } catch {
    return corrupt();
  }
}

/**
 * Stores a session's scan (one file, written atomically), so a fresh process answers
 * `session_overview` and `reconstruct_session` without re-reading the transcripts. A workspace
 * that cannot be written only loses the speed-up: failures are ignored.
 */
export async function storeScan(ctx: CoreContext, key: string, stamp: string, scan: SessionScan): Promise<void> {
  const stats: Record<string, unknown> = { ...scan.stats };
  for (const field of MAP_FIELDS) stats[field] = [...scan.stats[field].entries()];
  const header: Header = { version: SCAN_STORE_VERSION, stamp, count: scan.count, source: scan.source, types: scan.types, stats };
  const headerBuf = Buffer.from(JSON.stringify(header), "utf8");
  const arrays = [scan.ts, scan.sortKey, scan.fileIndex, scan.line, scan.order, scan.typeId, scan.actorId];
  // The arrays are written where they are (no joined 12 MB copy), each padded to 8 bytes.
  const chunks: Uint8Array[] = [];
  const length = Buffer.alloc(4);
  length.writeUInt32LE(headerBuf.length, 0);
  chunks.push(length, headerBuf, padding(4 + headerBuf.length));
  for (const a of arrays) chunks.push(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), padding(a.byteLength));
  // A cache (rebuilt when missing, stale or cut short): written atomically, without fsync.
  await writeFileAtomic(scanFile(ctx, key), chunks.filter((c) => c.length > 0), { durable: false }).catch(() => undefined);
}

/** Zero bytes from `n` up to the next multiple of 8. */
function padding(n: number): Uint8Array {
  return new Uint8Array(align8(n) - n);
}

function align8(n: number): number {
  return (n + 7) & ~7;
}
