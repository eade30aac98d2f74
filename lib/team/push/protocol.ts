/**
 * The push protocol between `casefile push` and a team server (issue 39, .tmp design "Push"):
 * a manifest of every file the machine's sources read, the server's answer of what it lacks,
 * then the missing bytes file by file. One schema for both ends.
 */
import * as z from "zod";

import { AGENT_SOURCE_NAMES } from "@/lib/sources/common/agent-source";

/** Bytes the head hash covers: SHA-256 of a file's first min(size, 64 KiB) bytes. */
export const HEAD_BYTES = 64 * 1024;

/** The most bytes one `PUT /api/team/push/file` carries (8 MiB): a bigger file goes in several requests. */
export const CHUNK_BYTES = 8 * 1024 * 1024;

/** The most files one manifest lists: a machine with more sends several manifests (each well under the 10 MiB body limit). */
export const MANIFEST_MAX_FILES = 5_000;

/** The kinds of root a machine pushes: the kinds `casefile sources` records. */
export const PUSH_KINDS = ["claude", "codex", ...AGENT_SOURCE_NAMES] as const;
export type PushKind = (typeof PUSH_KINDS)[number];

/** A root id: lower-case letters, digits and `-`, made by the client from the root's kind and path ({@link rootIdOf}). */
export const ROOT_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, "a lower-case SHA-256 hex digest");

/** One source root of the pushing machine: `path` is where it is on the machine; `file` when the root is one file (its one manifest path is its name). */
export const pushRootSchema = z.object({
  root_id: z.string().regex(ROOT_ID, "lower-case letters, digits and '-', at most 64"),
  kind: z.enum(PUSH_KINDS),
  path: z.string().min(1).max(4096),
  file: z.boolean().optional(),
});
export type PushRoot = z.infer<typeof pushRootSchema>;

/** One file under a root: `path` relative to the root with `/` separators; `mtime_ms` whole milliseconds. */
export const manifestFileSchema = z.object({
  root_id: z.string().regex(ROOT_ID),
  path: z.string().min(1).max(4096),
  size: z.number().int().nonnegative(),
  mtime_ms: z.number().int().nonnegative(),
  head_sha256: sha256Hex,
});
export type ManifestFile = z.infer<typeof manifestFileSchema>;

/** `POST /api/team/push/manifest`. */
export const manifestRequestSchema = z.object({
  roots: z.array(pushRootSchema).max(1_000),
  files: z.array(manifestFileSchema).max(MANIFEST_MAX_FILES),
});
export type ManifestRequest = z.infer<typeof manifestRequestSchema>;

/** A file the server lacks: send its bytes from `offset` (0: the whole file; N: it holds the first N bytes, the same head). */
export type WantedFile = { root_id: string; path: string; offset: number };
/** The answer to a manifest: files not listed are unchanged. */
export type ManifestResponse = { wants: WantedFile[] };

/** The answer to one accepted `PUT /api/team/push/file`: the bytes the server now holds of that file. */
export type FileResponse = { have_bytes: number };

/** The most files one `POST /api/team/push/files` carries; their bytes together are at most {@link CHUNK_BYTES}. */
export const BATCH_MAX_FILES = 500;

/** A file whose bytes to send are at most this goes in a batch (many small sessions, one request); a bigger one by `PUT /api/team/push/file`. */
export const BATCH_FILE_MAX_BYTES = 1024 * 1024;

/**
 * The first line of a `POST /api/team/push/files` body (JSON, then `\n`); the bytes of each
 * file follow, one after the other, `length` bytes each, in this order. A file sent whole
 * (offset 0) may carry `head_sha256`, the head hash of the bytes sent, which the server then keeps
 * instead of hashing them again (a wrong one only makes that machine's next push send the file again).
 */
export const batchHeaderSchema = z.object({
  files: z
    .array(z.object({ root_id: z.string(), path: z.string(), offset: z.number().int().nonnegative(), mtime_ms: z.number().int().nonnegative(), length: z.number().int().nonnegative(), head_sha256: sha256Hex.optional() }))
    .min(1)
    .max(BATCH_MAX_FILES),
});
export type BatchHeader = z.infer<typeof batchHeaderSchema>;

/** What the server did with one file of a batch: as a `PUT` would answer (held bytes, a conflict with what it holds, or why it refused). */
export type BatchResult = { status: "ok"; have_bytes: number } | { status: "conflict"; have_bytes: number } | { status: "invalid"; errors: PushProblem[] };

/** A structured problem (house rule): which field, what is wrong, what to do. */
export type PushProblem = { field: string; message: string; hint: string };

/**
 * Checks a manifest path: relative, `/`-separated, no empty, `.` or `..` segment, no backslash or
 * NUL, at most 4096 characters and 255 bytes a segment (a file system's name limit); for a one-file root, a single name. Returns the problem or null.
 * The server also resolves it inside the mirror after `realpath` (lib/fs/paths resolveInside).
 */
export function pathProblem(rel: string, fileRoot: boolean, field: string): PushProblem | null {
  const hint = "send paths relative to the source root, with '/' between folders and no '..'";
  if (rel.length === 0 || rel.length > 4096) return { field, message: "path must have 1 to 4096 characters", hint };
  if (rel.startsWith("/") || /^[A-Za-z]:/.test(rel)) return { field, message: `path '${rel}' is absolute`, hint };
  if (rel.includes("\\") || rel.includes("\0")) return { field, message: `path '${rel}' holds a backslash or NUL`, hint };
  const parts = rel.split("/");
  if (parts.some((p) => p === "..")) return { field, message: `path '${rel}' escapes its root ('..')`, hint };
  if (parts.some((p) => p === "" || p === ".")) return { field, message: `path '${rel}' has an empty or '.' segment`, hint };
  if (parts.some((p) => Buffer.byteLength(p) > 255)) return { field, message: `path '${rel.slice(0, 100)}…' has a name over 255 bytes`, hint: "a file system keeps names of at most 255 bytes" };
  if (fileRoot && parts.length !== 1) return { field, message: `path '${rel}' is not the one file of a one-file root`, hint: "a one-file root lists only its file's name" };
  return null;
}
