/**
 * `casefile push`'s client (issue 39): sends a machine's source files to a team server with
 * Node's fetch, as the push protocol says (lib/team/push/protocol): a manifest, the server's
 * answer of what it lacks, then only those bytes, at most 8 MiB per request.
 */
import { createHash } from "node:crypto";
import { closeSync, openSync, readSync, statSync } from "node:fs";
import fs from "node:fs/promises";

import { inLanes } from "@/lib/async/lanes";
import { AppError } from "@/lib/errors";
import { headSha256 } from "@/lib/team/push/file-head";
import { httpTransport, type PushResponse, type PushTransport } from "@/lib/team/push/http-transport";
import { BATCH_FILE_MAX_BYTES, BATCH_MAX_FILES, CHUNK_BYTES, HEAD_BYTES, MANIFEST_MAX_FILES, type BatchResult, type ManifestFile, type ManifestResponse, type PushKind, type PushProblem, type PushRoot } from "@/lib/team/push/protocol";
import { listPushedFiles, type PushedFile } from "@/lib/team/push/pushed-files";

/** A source root of this machine to push: its kind and absolute path. */
export type PushSource = { kind: PushKind; path: string };

/**
 * What one push did (`casefile push --json`): `sessions_sent` transcript files the server lacked
 * (whole or in part) and received, `sessions_unchanged` those it had, `bytes_sent` every byte
 * sent of every file (side files too), `errors` what failed (the rest was still sent).
 * Sessions are counted as transcript files (a Claude/Codex main `.jsonl`, an agent's session file
 * or database): subagents, tool results, exports and side files are not counted, their bytes are.
 */
export type PushSummary = { sessions_sent: number; sessions_unchanged: number; bytes_sent: number; errors: PushProblem[] };

/**
 * Remembered head hashes by absolute path, valid while the file's size, mtime, ctime and inode are
 * the same (`--watch` keeps one across pushes; the CLI keeps one between runs, lib/team/push/head-memo).
 * A push leaves in it only the files it listed.
 */
export type HeadCache = Map<string, { stamp: string; head: string }>;

export type PushOptions = {
  /** The team server's base URL (`https://team.example:3000`). */
  server: string;
  /** The bearer token (`cft_…`). */
  token: string;
  /** Files sent at the same time (default 4). */
  concurrency?: number;
  headCache?: HeadCache;
  /** Stops (throwing) once this many requests were made: tests cut a push short to resume it. */
  maxRequests?: number;
  /** How requests are made (default: Node's http/https with keep-alive, lib/team/push/http-transport); tests pass a stand-in. */
  fetch?: PushTransport;
};

/** The root id of a source: its kind and a hash of its path (the same on every push from this machine). */
export function rootIdOf(source: PushSource): string {
  return `${source.kind}-${createHash("sha256").update(`${source.kind}\0${source.path}`).digest("hex").slice(0, 16)}`;
}

type Listed = { root: PushRoot; file: PushedFile; entry: ManifestFile };

/**
 * Pushes every file the sources read under `sources` once (missing roots are skipped), and
 * returns what it did. A file that fails (a network error, a refusal) is in `errors`; the rest
 * goes on.
 * @throws AppError unauthorized / forbidden when the server refuses the token (401/403), invalid_input when the URL is not http(s), io_error when it cannot be reached.
 */
export async function pushOnce(sources: readonly PushSource[], options: PushOptions): Promise<PushSummary> {
  const base = serverBase(options.server);
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const transport = options.fetch ? null : httpTransport(concurrency);
  try {
    return await push(sources, options, base, concurrency, options.fetch ?? transport!.send);
  } finally {
    transport?.close();
  }
}

async function push(sources: readonly PushSource[], options: PushOptions, base: string, concurrency: number, doFetch: PushTransport): Promise<PushSummary> {
  let requests = 0;
  const request = async (url: string, init: RequestInit): Promise<PushResponse> => {
    if (options.maxRequests !== undefined && requests >= options.maxRequests) throw new PushCutShort(requests);
    requests++;
    try {
      return await doFetch(url, { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${options.token}` } });
    } catch (error) {
      throw new AppError("io_error", `cannot reach the team server ${base}: ${(error as Error).message}`, { hint: "check --server and that the server is running" });
    }
  };
  const summary: PushSummary = { sessions_sent: 0, sessions_unchanged: 0, bytes_sent: 0, errors: [] };
  const listed = await listAll(sources, options.headCache, summary.errors);
  const roots = [...new Map(listed.map((l) => [l.root.root_id, l.root])).values()];
  for (const source of sources) {
    const root = rootOf(source);
    if (root && !roots.some((r) => r.root_id === root.root_id)) roots.push(root);
  }
  for (let start = 0; start === 0 || start < listed.length; start += MANIFEST_MAX_FILES) {
    const batch = listed.slice(start, start + MANIFEST_MAX_FILES);
    const response = await request(`${base}/api/team/push/manifest`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ roots, files: batch.map((l) => l.entry) }) });
    const answer = (await readJson(response)) as ManifestResponse & { status?: string; errors?: PushProblem[] };
    if (response.status === 400 && answer.errors) {
      summary.errors.push(...answer.errors);
      continue;
    }
    if (!response.ok) throw refusal(response.status, answer);
    const wanted = new Map(answer.wants.map((w) => [`${w.root_id}/${w.path}`, w.offset]));
    for (const l of batch) if (l.file.transcript && !wanted.has(`${l.root.root_id}/${l.entry.path}`)) summary.sessions_unchanged++;
    const jobs = sendJobs(batch.flatMap((l) => {
      const offset = wanted.get(`${l.root.root_id}/${l.entry.path}`);
      return offset === undefined ? [] : [{ ...l, offset }];
    }), base, request, summary);
    const scratches = Array.from({ length: concurrency }, (): LaneScratch => ({ buffer: null }));
    await inLanes(jobs, concurrency, (job, _, lane) => job(scratches[lane]!));
    if (batch.length === 0) break;
  }
  return summary;
}

/** Thrown by a push stopped after `maxRequests` requests (a test's stand-in for a killed push). */
export class PushCutShort extends Error {
  constructor(readonly requests: number) {
    super(`push stopped after ${requests} requests`);
  }
}

/** The manifest root of a source, or null when it does not exist. */
function rootOf(source: PushSource): PushRoot | null {
  const st = statSync(source.path, { throwIfNoEntry: false });
  if (!st) return null;
  return { root_id: rootIdOf(source), kind: source.kind, path: source.path, ...(st.isDirectory() ? {} : { file: true }) };
}

async function listAll(sources: readonly PushSource[], cache: HeadCache | undefined, errors: PushProblem[]): Promise<Listed[]> {
  const out: Listed[] = [];
  const seen = new Set<string>();
  for (const source of sources) {
    const root = rootOf(source);
    if (!root) continue;
    for (const file of await listPushedFiles(source.kind, source.path)) {
      const st = statSync(file.abs, { throwIfNoEntry: false });
      if (!st) continue;
      const stamp = `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`;
      seen.add(file.abs);
      let head = cache?.get(file.abs)?.stamp === stamp ? cache.get(file.abs)!.head : null;
      if (head === null) {
        try {
          head = headSha256(file.abs, st.size);
        } catch (error) {
          errors.push({ field: file.abs, message: `cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, hint: "check the file's permissions" });
          continue;
        }
        cache?.set(file.abs, { stamp, head });
      }
      out.push({ root, file, entry: { root_id: root.root_id, path: file.rel, size: st.size, mtime_ms: Math.floor(st.mtimeMs), head_sha256: head } });
    }
  }
  if (cache) for (const abs of cache.keys()) if (!seen.has(abs)) cache.delete(abs);
  return out;
}

type Wanted = Listed & { offset: number };
type Send = (url: string, init: RequestInit) => Promise<PushResponse>;
/** A lane's batch buffer, reused from batch to batch (a fresh 8 MiB buffer each cost page faults and collections). */
type LaneScratch = { buffer: Buffer<ArrayBuffer> | null };
type Job = (scratch: LaneScratch) => Promise<void>;

/**
 * The requests that send `wanted`: files with at most {@link BATCH_FILE_MAX_BYTES} left to send
 * go together, up to {@link BATCH_MAX_FILES} files and {@link CHUNK_BYTES} bytes a batch
 * (`POST /api/team/push/files`: thousands of small sessions in a few requests); bigger ones go
 * alone ({@link sendFile}), after the batches.
 */
function sendJobs(wanted: Wanted[], base: string, request: Send, summary: PushSummary): Job[] {
  const jobs: Job[] = [];
  const alone: Wanted[] = [];
  let group: Wanted[] = [];
  let bytes = 0;
  const flush = () => {
    if (group.length === 0) return;
    const files = group;
    jobs.push((scratch) => sendBatch(files, base, request, summary, scratch));
    group = [];
    bytes = 0;
  };
  for (const w of wanted) {
    const left = w.entry.size - w.offset;
    if (left > BATCH_FILE_MAX_BYTES) {
      alone.push(w);
      continue;
    }
    if (group.length >= BATCH_MAX_FILES || bytes + left > CHUNK_BYTES) flush();
    group.push(w);
    bytes += left;
  }
  flush();
  for (const w of alone) {
    jobs.push(async () => {
      if ((await sendFile(w, w.offset, base, request, summary)) && w.file.transcript) summary.sessions_sent++;
    });
  }
  return jobs;
}

/**
 * Sends small files in one `POST /api/team/push/files`; a file the server holds more or less of
 * than asked is sent again alone from what it holds. The body is made in one buffer, each file
 * read into its place on this thread (thousands of small reads: a thread-pool round trip and a
 * buffer each cost more than the read); a file that cannot be read whole is left out of the batch.
 */
async function sendBatch(files: Wanted[], base: string, request: Send, summary: PushSummary, scratch: LaneScratch): Promise<void> {
  // The files' bytes go first, behind room for the header: a file sent whole gets the head hash of
  // the bytes read (the server keeps it rather than hashing them again), known only once read.
  const total = files.reduce((n, w) => n + w.entry.size - w.offset, 0);
  const room = 128 + files.reduce((n, w) => n + Buffer.byteLength(w.entry.root_id) + Buffer.byteLength(JSON.stringify(w.entry.path)) + 240, 0);
  if (!scratch.buffer || scratch.buffer.byteLength < room + total) scratch.buffer = Buffer.allocUnsafeSlow(Math.max(room + total, CHUNK_BYTES + (1 << 20)));
  const bytes = scratch.buffer;
  const heads = new Map<Wanted, string>();
  const failed = new Set<Wanted>();
  let at = room;
  for (const w of files) {
    const length = w.entry.size - w.offset;
    const into = bytes.subarray(at, at + length);
    const problem = readInto(w.file.abs, w.offset, into);
    if (problem) {
      failed.add(w);
      summary.errors.push({ field: `${w.root.path}/${w.entry.path}`, message: problem, hint: problem.startsWith("cannot read") ? "check the file's permissions" : "push again: the next push sends it as it is then" });
    } else if (w.offset === 0) heads.set(w, createHash("sha256").update(into.subarray(0, Math.min(length, HEAD_BYTES))).digest("hex"));
    at += length;
  }
  let sent = files;
  if (failed.size > 0) {
    // Rare: close the gaps the files that failed left, moving the others' bytes down.
    let from = room;
    let to = room;
    for (const w of files) {
      const length = w.entry.size - w.offset;
      if (!failed.has(w)) to += bytes.copy(bytes, to, from, from + length);
      from += length;
    }
    at = to;
    sent = files.filter((w) => !failed.has(w));
  }
  if (sent.length === 0) return;
  const header = Buffer.from(`${JSON.stringify({ files: sent.map((w) => ({ root_id: w.entry.root_id, path: w.entry.path, offset: w.offset, mtime_ms: w.entry.mtime_ms, length: w.entry.size - w.offset, ...(heads.has(w) ? { head_sha256: heads.get(w) } : {}) })) })}\n`);
  if (header.byteLength > room) throw new Error(`push: a batch header of ${header.byteLength} bytes outgrew its ${room} bytes of room`);
  header.copy(bytes, room - header.byteLength);
  const body = bytes.subarray(room - header.byteLength, at);
  const response = await request(`${base}/api/team/push/files`, { method: "POST", headers: { "content-type": "application/octet-stream" }, body });
  const answer = (await readJson(response)) as { results?: BatchResult[]; errors?: PushProblem[] };
  if (response.status === 401 || response.status === 403) throw refusal(response.status, answer);
  if (!response.ok || !answer.results) {
    summary.errors.push(...(answer.errors ?? [{ field: "batch", message: `the server answered ${response.status}`, hint: "see the server's log" }]));
    return;
  }
  for (const [i, w] of sent.entries()) {
    const result = answer.results[i];
    if (result?.status === "ok") {
      summary.bytes_sent += w.entry.size - w.offset;
      if (w.file.transcript) summary.sessions_sent++;
    } else if (result?.status === "conflict" && result.have_bytes <= w.entry.size) {
      if ((await sendFile(w, result.have_bytes, base, request, summary)) && w.file.transcript) summary.sessions_sent++;
    } else summary.errors.push(...(result?.status === "invalid" ? result.errors : [{ field: `${w.root.path}/${w.entry.path}`, message: "the server did not take it", hint: "push again" }]));
  }
}

/** Fills `into` with `file`'s bytes from `offset`; what went wrong (unreadable, or shorter now), or null. */
function readInto(file: string, offset: number, into: Buffer): string | null {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (error) {
    return `cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
  }
  try {
    let got = 0;
    while (got < into.byteLength) {
      const n = readSync(fd, into, got, into.byteLength - got, offset + got);
      if (n === 0) return "the file shrank while it was being pushed";
      got += n;
    }
    return null;
  } catch (error) {
    return `cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;
  } finally {
    closeSync(fd);
  }
}

/**
 * Sends `l`'s bytes from `offset` up to the size the manifest listed, in chunks of at most
 * {@link CHUNK_BYTES}; a 409 moves on from the size the server holds. True when the server ends
 * up holding the listed size; a failure is recorded in `summary.errors` (false).
 */
async function sendFile(l: Listed, offset: number, base: string, request: Send, summary: PushSummary): Promise<boolean> {
  const { entry } = l;
  const field = `${l.root.path}/${entry.path}`;
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(l.file.abs, "r");
  } catch (error) {
    summary.errors.push({ field, message: `cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, hint: "check the file's permissions" });
    return false;
  }
  try {
    let pos = offset;
    for (let first = true; first || pos < entry.size; first = false) {
      const length = Math.min(CHUNK_BYTES, entry.size - pos);
      const buf = Buffer.allocUnsafe(length);
      const { bytesRead } = length > 0 ? await handle.read(buf, 0, length, pos) : { bytesRead: 0 };
      if (bytesRead < length) {
        summary.errors.push({ field, message: "the file shrank while it was being pushed", hint: "push again: the next push sends it as it is then" });
        return false;
      }
      const query = new URLSearchParams({ root_id: entry.root_id, path: entry.path, offset: String(pos), mtime_ms: String(entry.mtime_ms) });
      const response = await request(`${base}/api/team/push/file?${query}`, { method: "PUT", headers: { "content-type": "application/octet-stream" }, body: buf });
      const answer = (await readJson(response)) as { have_bytes?: number; errors?: PushProblem[] };
      if (response.status === 409 && typeof answer.have_bytes === "number" && answer.have_bytes <= entry.size) {
        pos = answer.have_bytes;
        continue;
      }
      if (response.status === 401 || response.status === 403) throw refusal(response.status, answer);
      if (!response.ok) {
        summary.errors.push(...(answer.errors ?? [{ field, message: `the server answered ${response.status}`, hint: "see the server's log" }]));
        return false;
      }
      summary.bytes_sent += length;
      pos += length;
    }
    return true;
  } finally {
    await handle.close();
  }
}

function serverBase(server: string): string {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new AppError("invalid_input", `--server '${server}' is not a URL`, { hint: "pass the team server's address, e.g. --server https://casefile.example:3000" });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new AppError("invalid_input", `--server '${server}' is not http(s)`, { hint: "pass an http:// or https:// address" });
  return url.toString().replace(/\/+$/, "");
}

async function readJson(response: PushResponse): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { errors: [{ field: "response", message: `the server answered ${response.status} with no JSON`, hint: "check --server: is it a Casefile team server?" }] };
  }
}

function refusal(status: number, answer: unknown): AppError {
  const error = (answer as { error?: { message?: string; hint?: string } }).error;
  if (status === 401 || status === 403) return new AppError(status === 401 ? "unauthorized" : "forbidden", `the team server refused the token (${status}): ${error?.message ?? "unauthorized"}`, { hint: error?.hint ?? "pass a push token: casefile token create --machine NAME --role push" });
  return new AppError("io_error", `the team server answered ${status}: ${error?.message ?? "unexpected answer"}`, { hint: error?.hint ?? "see the server's log" });
}
