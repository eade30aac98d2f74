/** The ledger's input and output blobs under `inputs/`: stored by hash, or as references to source bytes. */
import crypto, { randomBytes } from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import { gunzipSync, gzipSync } from "node:zlib";

import { canonicalJson, sha256Text } from "@/lib/json/canonical-json";
import { forEachTextRecord } from "@/lib/jsonl/text-lines";
import { blobPath, blobRef, type LedgerPaths } from "@/lib/ledger/paths";

/** A stored blob: its SHA-256 and its reference (`inputs/<hash>`). */
export type BlobRef = { hash: string; ref: string };

/**
 * Bytes of a file a call's output is a pure function of (with its input): `[start, end)` of
 * `path` (absolute). A tool reports it through its trace (lib/context `CallTrace.source`).
 */
export type SourceRange = { path: string; start: number; end: number };

/**
 * What a large output's blob holds instead of the output (issue 26, bounded storage): the
 * source bytes it was computed from and their SHA-256 at the time of the call. `output_hash` is
 * the blob's name, the SHA-256 of the output's canonical JSON; re-running the tool with the
 * recorded input over bytes that still hash to `sha256` gives it again.
 */
export type SourceReference = { casefile_blob: "source_ref"; output_hash: string; output_chars: number; path: string; start: number; end: number; sha256: string };

/** Outputs at least this long (characters of canonical JSON) with a reported source are stored as a {@link SourceReference}. */
export const REFERENCE_MIN_CHARS = 32 * 1024;

/** Texts shorter than this are stored as they are: gzip's header would outweigh its gain. */
const COMPRESS_MIN_CHARS = 256;

/**
 * Stores a value once under `inputs/<sha256 of its canonical JSON>` (seed 002, "exclusive-create
 * mode"): as its canonical JSON text, which the seed fixes for inputs, or with `compress`
 * (outputs, issue 26) gzip-compressed (a short text stays plain). With a `source` and an output of
 * at least {@link REFERENCE_MIN_CHARS}, the blob is a {@link SourceReference} instead of the
 * bytes. The blob is written to a temp file and hard-linked into place: `link` fails with
 * EEXIST when the blob exists, so an existing blob is never overwritten, and unlike a bare `wx`
 * create a writer killed mid-write never leaves a short blob under the final name.
 * @throws the underlying fs error (ENOSPC, EACCES) other than EEXIST.
 */
export async function persistBlob(paths: LedgerPaths, value: unknown, options: { compress?: boolean; source?: SourceRange } = {}): Promise<BlobRef> {
  const { compress = false, source } = options;
  const text = canonicalJson(value);
  const hash = sha256Text(text);
  const target = blobPath(paths, hash);
  // NOTE: synchronous on purpose (the per-call hot path; see Ledger.append). A stored blob is
  // never rewritten, so an existing name is the common, one-syscall case.
  // Reuse renews the blob's time, so retention by age removes blobs no recent call needed.
  if (fs.existsSync(target)) {
    renew(target);
    return { hash, ref: blobRef(hash) };
  }
  const reference = source && text.length >= REFERENCE_MIN_CHARS ? referenceOf(hash, text.length, source) : null;
  const stored = reference ? JSON.stringify(reference) : text;
  const data = !compress || stored.length < COMPRESS_MIN_CHARS ? stored : gzipSync(stored);
  const tmp = `${paths.inputsDir}/.${hash}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    fs.writeFileSync(tmp, data, { flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    fs.mkdirSync(paths.inputsDir, { recursive: true });
    fs.writeFileSync(tmp, data, { flag: "wx" });
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

function renew(target: string): void {
  try {
    const now = new Date();
    fs.utimesSync(target, now, now);
  } catch {
    /* pruned meanwhile, or read-only: the blob is still what its name says */
  }
}

/** The reference for an output computed from `source`, or null when its bytes cannot be read now. */
function referenceOf(hash: string, chars: number, source: SourceRange): SourceReference | null {
  const bytes = readRangeSync(source);
  return bytes ? { casefile_blob: "source_ref", output_hash: hash, output_chars: chars, path: source.path, start: source.start, end: source.end, sha256: sha256Bytes(bytes) } : null;
}

function readRangeSync(source: SourceRange): Buffer | null {
  let fd: number;
  try {
    fd = fs.openSync(source.path, "r");
  } catch {
    return null;
  }
  try {
    const out = Buffer.allocUnsafe(source.end - source.start);
    const n = fs.readSync(fd, out, 0, out.length, source.start);
    return n === out.length ? out : null;
  } finally {
    fs.closeSync(fd);
  }
}

const sha256Bytes = (bytes: Buffer): string => crypto.hash("sha256", bytes, "hex");

/**
 * A blob read back. `present`: its text, the parsed value, and whether its hash recomputes.
 * `reference`: a {@link SourceReference}; `verified` when the source bytes still hash as recorded.
 * `pruned`: removed by retention (lib/ledger/retention), on record in `audit/pruned.jsonl`.
 */
export type BlobRead =
  | { state: "missing" }
  | { state: "pruned"; pruned_at: string }
  | { state: "present"; text: string; value: unknown; verified: boolean; actual_hash: string }
  | { state: "reference"; value: SourceReference; verified: boolean; actual_hash: string };

/** Reads the blob named by `hash` (plain or gzip) and recomputes its SHA-256 (seed 002 "Inputs are verifiable"). */
export async function readBlob(paths: LedgerPaths, hash: string, pruned?: ReadonlyMap<string, { pruned_at: string }>): Promise<BlobRead> {
  if (!/^[0-9a-f]{64}$/.test(hash)) return { state: "missing" };
  let text: string;
  try {
    text = decodeBlob(await fsp.readFile(blobPath(paths, hash)));
  } catch {
    const record = (pruned ?? (await readPruned(paths))).get(hash);
    return record ? { state: "pruned", pruned_at: record.pruned_at } : { state: "missing" };
  }
  const actual = sha256Text(text);
  let value: unknown = null;
  try {
    value = JSON.parse(text);
  } catch {
    /* a corrupt blob: verified is false below */
  }
  if (actual !== hash && isReference(value) && value.output_hash === hash) {
    const bytes = readRangeSync(value);
    return { state: "reference", value, verified: bytes !== null && sha256Bytes(bytes) === value.sha256, actual_hash: actual };
  }
  return { state: "present", text, value, verified: actual === hash, actual_hash: actual };
}

/** A blob file's text: gunzipped when it starts with gzip's magic (canonical JSON never does). */
export function decodeBlob(data: Buffer): string {
  if (data.length >= 2 && data[0] === 0x1f && data[1] === 0x8b) {
    try {
      return gunzipSync(data).toString("utf8");
    } catch {
      return data.toString("latin1"); // a damaged blob: its hash will not recompute
    }
  }
  return data.toString("utf8");
}

function isReference(value: unknown): value is SourceReference {
  const v = value as Partial<SourceReference> | null;
  return !!v && v.casefile_blob === "source_ref" && typeof v.path === "string" && Number.isInteger(v.start) && Number.isInteger(v.end) && typeof v.sha256 === "string";
}

/** One blob removed by retention. */
export type PrunedRecord = { hash: string; bytes: number; pruned_at: string; reason: string };

/** The blobs retention removed (`audit/pruned.jsonl`), by hash; an unreadable line is skipped. */
export async function readPruned(paths: LedgerPaths): Promise<Map<string, PrunedRecord>> {
  const out = new Map<string, PrunedRecord>();
  const data = await fsp.readFile(paths.pruned).catch(() => Buffer.alloc(0));
  forEachTextRecord(data, (line) => {
    try {
      const r = JSON.parse(line) as PrunedRecord;
      if (typeof r.hash === "string") out.set(r.hash, r);
    } catch {
      /* blank or torn line */
    }
  });
  return out;
}
