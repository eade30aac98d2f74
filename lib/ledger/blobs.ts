import { randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";

import { canonicalJson, sha256Text } from "@/lib/json/canonical-json";
import { blobPath, blobRef, type LedgerPaths } from "@/lib/ledger/paths";

/** A stored blob: its SHA-256 and its reference (`inputs/<hash>`). */
export type BlobRef = { hash: string; ref: string };

/**
 * Stores a value once under `inputs/<sha256 of its canonical JSON>` (seed 002, "exclusive-create
 * mode"). The text is written to a temp file and hard-linked into place: `link` fails with EEXIST
 * when the blob exists, so an existing blob is never overwritten, and unlike a bare `wx` create a
 * writer killed mid-write never leaves a short blob under the final name.
 * @throws the underlying fs error (ENOSPC, EACCES) other than EEXIST.
 */
export async function persistBlob(paths: LedgerPaths, value: unknown): Promise<BlobRef> {
  const text = canonicalJson(value);
  const hash = sha256Text(text);
  const target = blobPath(paths, hash);
  // NOTE: synchronous on purpose (the per-call hot path; see Ledger.append). A stored blob is
  // never rewritten, so an existing name is the common, one-syscall case.
  if (fs.existsSync(target)) return { hash, ref: blobRef(hash) };
  const tmp = `${paths.inputsDir}/.${hash}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    fs.writeFileSync(tmp, text, { flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    fs.mkdirSync(paths.inputsDir, { recursive: true });
    fs.writeFileSync(tmp, text, { flag: "wx" });
  }
  try {
    fs.linkSync(tmp, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  return { hash, ref: blobRef(hash) };
}

/** A blob read back: its text, the parsed value, and whether its hash recomputes. */
export type BlobRead = { state: "missing" } | { state: "present"; text: string; value: unknown; verified: boolean; actual_hash: string };

/** Reads the blob named by `hash` and recomputes its SHA-256 (seed 002 "Inputs are verifiable"). */
export async function readBlob(paths: LedgerPaths, hash: string): Promise<BlobRead> {
  if (!/^[0-9a-f]{64}$/.test(hash)) return { state: "missing" };
  let text: string;
  try {
    text = await fsp.readFile(blobPath(paths, hash), "utf8");
  } catch {
    return { state: "missing" };
  }
  const actual = sha256Text(text);
  let value: unknown = null;
  try {
    value = JSON.parse(text);
  } catch {
    /* a corrupt blob: verified is false below */
  }
  return { state: "present", text, value, verified: actual === hash, actual_hash: actual };
}
