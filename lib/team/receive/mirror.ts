/**
 * A team server's side of `casefile push` (issue 39): each machine's files kept under the
 * workspace (`team/machines/<machine>/<root_id>/<path>`, lib/fs/workspace-layout), what it holds
 * of each file remembered so a manifest is answered from stats, and each mirror registered as a
 * source of the workspace so its ordinary sync prepares it.
 */
import { createHash } from "node:crypto";
import { lstatSync, statSync, utimesSync, type Stats } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";

import { processWide } from "@/lib/cache/process-wide";
import { isAppError } from "@/lib/errors";
import { writeFileAtomic } from "@/lib/fs/atomic-write";
import { resolveInside } from "@/lib/fs/paths";
import { teamMirrorDir, teamPushStatePath } from "@/lib/fs/workspace-layout";
import { headSha256 } from "@/lib/team/push/file-head";
import { batchHeaderSchema, CHUNK_BYTES, HEAD_BYTES, manifestRequestSchema, type BatchResult, pathProblem, ROOT_ID, type ManifestResponse, type PushProblem, type PushRoot, type WantedFile } from "@/lib/team/push/protocol";
import { classifyPushedFile } from "@/lib/team/push/pushed-files";
import { wantedOffset, type HeldFile } from "@/lib/team/receive/manifest-diff";
import { registerMirrorRoot } from "@/lib/team/receive/register";
import { MACHINE_NAME } from "@/lib/workspace/machines";

/** A refused request: every problem found, nothing stored. */
export type PushInvalid = { status: "invalid"; errors: PushProblem[] };

/** What a machine's push state remembers: its roots as last announced, and per `<root_id>/<path>` the copy's stat and head. */
type PushState = { roots: Record<string, PushRoot>; held: Record<string, HeldFile & { ino: number }> };

type MachineState = { state: PushState; dirty: boolean; flush: NodeJS.Timeout | null };

/** Loaded push states by state file, and the write queue of each mirror file: one of each per process (Next loads lib/ per bundle layer). */
const states = processWide("team:push-states", () => new Map<string, Promise<MachineState>>());
const queues = processWide("team:push-queues", () => new Map<string, Promise<unknown>>());

/** The problem with a machine name, or null (a token's machine must be a safe folder name). */
function machineProblem(machine: string): PushProblem | null {
  return MACHINE_NAME.test(machine) ? null : { field: "machine", message: `machine '${machine}' is not a folder name Casefile keeps`, hint: "create the token with --machine NAME of letters, digits, '.', '_' and '-'" };
}

/**
 * Answers a manifest (`POST /api/team/push/manifest`) from machine `machine`: validates it whole
 * (a path that escapes its root, is absolute, or is a file no source reads refuses the manifest,
 * and nothing is stored), records and registers its roots, and returns the files the server lacks
 * with the offset to send each from ({@link wantedOffset}).
 */
export async function answerManifest(workspaceRoot: string, machine: string, input: unknown): Promise<{ status: "ok"; value: ManifestResponse } | PushInvalid> {
  const bad = machineProblem(machine);
  if (bad) return { status: "invalid", errors: [bad] };
  const parsed = manifestRequestSchema.safeParse(input);
  if (!parsed.success) {
    return { status: "invalid", errors: parsed.error.issues.map((i) => ({ field: i.path.join(".") || "body", message: i.message, hint: "send {roots:[{root_id, kind, path}], files:[{root_id, path, size, mtime_ms, head_sha256}]}" })) };
  }
  const { roots, files } = parsed.data;
  const errors: PushProblem[] = [];
  const m = await machineState(workspaceRoot, machine);
  const known = new Map<string, PushRoot>(Object.entries(m.state.roots));
  for (const [i, root] of roots.entries()) {
    const hint = "announce where the root is on the machine, as an absolute path";
    if (!path.posix.isAbsolute(root.path) && !path.win32.isAbsolute(root.path)) errors.push({ field: `roots.${i}.path`, message: `root path '${root.path}' is not absolute`, hint });
    else if (pathProblem(rootName(root), true, `roots.${i}.path`)) errors.push({ field: `roots.${i}.path`, message: `root path '${root.path}' does not end in a file or folder name`, hint });
    known.set(root.root_id, root);
  }
  for (const [i, f] of files.entries()) {
    const root = known.get(f.root_id);
    if (!root) {
      errors.push({ field: `files.${i}.root_id`, message: `root '${f.root_id}' is not announced`, hint: "list every root of the files in roots" });
      continue;
    }
    const problem = pathProblem(f.path, root.file === true, `files.${i}.path`) ?? kindProblem(root, f.path, `files.${i}.path`);
    if (problem) errors.push(problem);
  }
  if (errors.length > 0) return { status: "invalid", errors };

  for (const root of roots) {
    const before = m.state.roots[root.root_id];
    if (!before || before.kind !== root.kind || before.path !== root.path || (before.file ?? false) !== (root.file ?? false)) {
      m.state.roots[root.root_id] = root;
      m.dirty = true;
    }
    await fs.mkdir(root.file ? teamMirrorDir(workspaceRoot, machine, root.root_id) : mirrorRootPath(workspaceRoot, machine, root), { recursive: true });
    await registerMirrorRoot(workspaceRoot, machine, root, mirrorRootPath(workspaceRoot, machine, root));
  }
  const wants: WantedFile[] = [];
  for (const f of files) {
    const root = known.get(f.root_id)!;
    const held = heldOf(filesFolder(workspaceRoot, machine, root), m, f.root_id, f.path);
    const offset = wantedOffset(held, f, classifyPushedFile(root.kind, f.path, root.file === true)!.appendOnly);
    if (offset !== null) wants.push({ root_id: f.root_id, path: f.path, offset });
  }
  await flushState(workspaceRoot, machine, m);
  return { status: "ok", value: { wants } };
}

/**
 * The bytes of one `PUT /api/team/push/file`: where they go and the machine's mtime of the file
 * (whole ms); from a batch, at offset 0, maybe the head hash of the bytes the client computed.
 */
export type FileChunk = { root_id: string; path: string; offset: number; mtime_ms: number; head_sha256?: string };

/**
 * Writes one chunk (`PUT /api/team/push/file`): at offset 0 it replaces the copy (written aside
 * and renamed over it); at offset N it must be exactly the size the server holds (else
 * `conflict` with `have_bytes`) and is written there. Either way the copy's mtime becomes the
 * machine's. A crash leaves the old copy, or the held bytes plus a prefix of the chunk, which
 * the next manifest reads as the offset to resume from. Writes of one file are serialized.
 * Not fsynced unless `durable`: the machine keeps the file, and every push's manifest checks the
 * copy again, so a write a server crash lost is sent again (an fsync per file cost a 2,000-session
 * push 40% of its time, bench/team-push.bench.ts).
 */
export async function receiveChunk(workspaceRoot: string, machine: string, chunk: FileChunk, body: Uint8Array, options: { durable?: boolean; folders?: RealFolders } = {}): Promise<{ status: "ok"; have_bytes: number } | { status: "conflict"; have_bytes: number } | PushInvalid> {
  const bad = machineProblem(machine);
  if (bad) return { status: "invalid", errors: [bad] };
  const m = await machineState(workspaceRoot, machine);
  const root = ROOT_ID.test(chunk.root_id) ? m.state.roots[chunk.root_id] : undefined;
  const errors: PushProblem[] = [];
  if (!root) errors.push({ field: "root_id", message: `root '${chunk.root_id}' was not announced by this machine`, hint: "send POST /api/team/push/manifest with the root first" });
  const problem = root ? (pathProblem(chunk.path, root.file === true, "path") ?? kindProblem(root, chunk.path, "path")) : null;
  if (problem) errors.push(problem);
  if (!Number.isSafeInteger(chunk.offset) || chunk.offset < 0) errors.push({ field: "offset", message: "offset must be a whole number of bytes, 0 or more", hint: "send the offset the manifest's answer named" });
  if (!Number.isSafeInteger(chunk.mtime_ms) || chunk.mtime_ms < 0) errors.push({ field: "mtime_ms", message: "mtime_ms must be a whole number of milliseconds", hint: "send the file's mtime as the manifest listed it" });
  if (body.byteLength > CHUNK_BYTES) errors.push({ field: "body", message: `chunk of ${body.byteLength} bytes is over ${CHUNK_BYTES}`, hint: `send at most ${CHUNK_BYTES} bytes per request` });
  if (errors.length > 0 || !root) return { status: "invalid", errors };
  let target: string;
  try {
    target = await resolveTarget(filesFolder(workspaceRoot, machine, root), chunk.path, options.folders);
  } catch (error) {
    if (isAppError(error)) return { status: "invalid", errors: [{ field: "path", message: error.message, hint: "send paths that stay inside the root" }] };
    if ((error as NodeJS.ErrnoException).code === "ENOTDIR") return { status: "invalid", errors: [{ field: "path", message: `'${chunk.path}' goes through a file on the server`, hint: "a file and a folder cannot share a path" }] };
    throw error;
  }
  const key = `${root.root_id}/${chunk.path}`;
  const result = await serialized(target, async () => {
    const st = lstatOrNull(target);
    if (st && !st.isFile()) return { status: "invalid" as const, errors: [{ field: "path", message: `'${chunk.path}' is a folder or link on the server`, hint: "a file and a folder cannot share a path" }] };
    const held = st?.size ?? 0;
    const durable = options.durable ?? false;
    if (chunk.offset === 0) {
      // writeFileAtomic makes the file's folders; a file where one of them would be refuses the path.
      try {
        await writeFileAtomic(target, body, { durable });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== "ENOTDIR" && code !== "EEXIST") throw error;
        return { status: "invalid" as const, errors: [{ field: "path", message: `'${chunk.path}' goes through a file on the server`, hint: "a file and a folder cannot share a path" }] };
      }
    } else if (chunk.offset !== held) {
      return { status: "conflict" as const, have_bytes: held };
    } else {
      const handle = await fs.open(target, "r+");
      try {
        await handle.write(body, 0, body.byteLength, chunk.offset);
        if (durable) await handle.sync();
      } finally {
        await handle.close();
      }
    }
    const seconds = chunk.mtime_ms / 1000;
    // On this thread, as the small write before it (lib/fs/atomic-write): a batch sets thousands.
    utimesSync(target, seconds, seconds);
    const size = chunk.offset + body.byteLength;
    // The head is known without reading back: the chunk at 0 holds it, and bytes past 64 KiB leave it as it was.
    const prior = m.state.held[key];
    const head = chunk.offset === 0 ? (chunk.head_sha256 ?? createHash("sha256").update(body.subarray(0, Math.min(body.byteLength, HEAD_BYTES))).digest("hex")) : chunk.offset >= HEAD_BYTES && prior?.size === chunk.offset ? prior.head_sha256 : null;
    const now = statSync(target);
    if (head === null) delete m.state.held[key];
    else m.state.held[key] = { size, mtime_ms: Math.round(now.mtimeMs), ino: now.ino, head_sha256: head };
    m.dirty = true;
    return { status: "ok" as const, have_bytes: size };
  });
  if (result.status === "ok") {
    await registerMirrorRoot(workspaceRoot, machine, root, mirrorRootPath(workspaceRoot, machine, root));
    scheduleFlush(workspaceRoot, machine, m);
  }
  return result;
}

/**
 * Writes the files of one `POST /api/team/push/files` (issue 39: many small sessions in one
 * request): the body's first line is a {@link batchHeaderSchema} header, then each file's bytes
 * in order. Each file is then written as {@link receiveChunk} writes one `PUT` (its own result:
 * a refused or conflicting file does not stop the others). A header that does not parse, or whose
 * lengths do not add up to the bytes that follow, refuses the whole batch (nothing stored).
 */
export async function receiveBatch(workspaceRoot: string, machine: string, body: Uint8Array): Promise<{ status: "ok"; results: BatchResult[] } | PushInvalid> {
  const hint = "send one JSON line {files:[{root_id, path, offset, mtime_ms, length}]}, then the files' bytes in that order";
  const end = body.indexOf(0x0a);
  let header: unknown;
  try {
    header = end === -1 ? null : JSON.parse(Buffer.from(body.buffer, body.byteOffset, end).toString("utf8"));
  } catch {
    header = null;
  }
  const parsed = batchHeaderSchema.safeParse(header);
  if (!parsed.success) return { status: "invalid", errors: [{ field: "body", message: "the batch's first line is not its header", hint }] };
  const total = parsed.data.files.reduce((n, f) => n + f.length, 0);
  if (total !== body.byteLength - end - 1) return { status: "invalid", errors: [{ field: "body", message: `the header names ${total} bytes, the body holds ${body.byteLength - end - 1}`, hint }] };
  if (total > CHUNK_BYTES) return { status: "invalid", errors: [{ field: "body", message: `a batch of ${total} bytes is over ${CHUNK_BYTES}`, hint: `send at most ${CHUNK_BYTES} bytes per request` }] };
  const results: BatchResult[] = [];
  const folders: RealFolders = new Map();
  let at = end + 1;
  for (const [i, f] of parsed.data.files.entries()) {
    const head = f.offset === 0 && f.head_sha256 !== undefined ? { head_sha256: f.head_sha256 } : {};
    const result = await receiveChunk(workspaceRoot, machine, { root_id: f.root_id, path: f.path, offset: f.offset, mtime_ms: f.mtime_ms, ...head }, body.subarray(at, at + f.length), { folders });
    at += f.length;
    results.push(result.status === "invalid" ? { status: "invalid", errors: result.errors.map((e) => ({ ...e, field: `files.${i}.${e.field}` })) } : result);
  }
  return { status: "ok", results };
}

/**
 * The path the workspace's sources name for a mirror: `<root_id>/<the root's own name>` (a folder,
 * or a one-file root's file), so a name a source reads off the root's path is the machine's
 * (Aider's session ids start with the project folder's name).
 */
export function mirrorRootPath(workspaceRoot: string, machine: string, root: PushRoot): string {
  return path.join(teamMirrorDir(workspaceRoot, machine, root.root_id), rootName(root));
}

/** Real paths of the folders one batch writes into, by `<files folder>\0<relative folder>`. */
type RealFolders = Map<string, string>;

/**
 * Where `rel` lands under `folder` after `realpath` (lib/fs/paths `resolveInside`: nothing may
 * land outside it). Within one batch each folder is resolved once: its files (a project's hundred
 * sessions) share it. The file itself is checked by `lstat` before it is written.
 * @throws AppError invalid_input when the path resolves outside; ENOTDIR when it goes through a file.
 */
async function resolveTarget(folder: string, rel: string, folders: RealFolders | undefined): Promise<string> {
  const cut = rel.lastIndexOf("/");
  if (!folders || cut === -1) return resolveInside(folder, rel);
  const key = `${folder}\0${rel.slice(0, cut)}`;
  let real = folders.get(key);
  if (real === undefined) {
    real = await resolveInside(folder, rel.slice(0, cut));
    folders.set(key, real);
  }
  return path.join(real, rel.slice(cut + 1));
}

/** The last name of a root's path on its machine (either separator). */
function rootName(root: PushRoot): string {
  return root.path.split(/[\\/]/).filter((p) => p !== "").at(-1) ?? "";
}

/** The folder a root's manifest paths are relative to: the mirror root itself, or a one-file root's folder. */
function filesFolder(workspaceRoot: string, machine: string, root: PushRoot): string {
  return root.file ? teamMirrorDir(workspaceRoot, machine, root.root_id) : mirrorRootPath(workspaceRoot, machine, root);
}

function kindProblem(root: PushRoot, rel: string, field: string): PushProblem | null {
  if (root.file && rel !== rootName(root)) return { field, message: `'${rel}' is not the one file of root '${root.path}'`, hint: "a one-file root lists only its file, by its name" };
  if (classifyPushedFile(root.kind, rel, root.file === true)) return null;
  return { field, message: `'${rel}' is not a file the ${root.kind} source reads`, hint: "push only session files and their side files (docs/team.md)" };
}

/** What the server holds of one file: from the remembered stat and head when the copy's stat is unchanged, else read. */
function heldOf(folder: string, m: MachineState, rootId: string, rel: string): HeldFile | null {
  const file = path.join(folder, ...rel.split("/"));
  const st = lstatOrNull(file);
  const key = `${rootId}/${rel}`;
  if (!st?.isFile()) {
    if (m.state.held[key]) {
      delete m.state.held[key];
      m.dirty = true;
    }
    return null;
  }
  const mtime = Math.round(st.mtimeMs);
  const known = m.state.held[key];
  if (known && known.size === st.size && known.mtime_ms === mtime && known.ino === st.ino) return known;
  const held = { size: st.size, mtime_ms: mtime, ino: st.ino, head_sha256: headSha256(file, st.size) };
  m.state.held[key] = held;
  m.dirty = true;
  return held;
}

/** `lstat`, or null when nothing is there, or a file sits where a folder of the path would be (ENOTDIR). */
function lstatOrNull(file: string): Stats | null {
  try {
    return lstatSync(file, { throwIfNoEntry: false }) ?? null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOTDIR") return null;
    throw error;
  }
}

async function machineState(workspaceRoot: string, machine: string): Promise<MachineState> {
  const file = teamPushStatePath(workspaceRoot, machine);
  let loading = states.get(file);
  if (!loading) {
    loading = fs.readFile(file, "utf8").then(
      (text) => ({ state: parseState(text), dirty: false, flush: null }),
      () => ({ state: { roots: {}, held: {} }, dirty: false, flush: null }),
    );
    states.set(file, loading);
  }
  return loading;
}

/** A state file read back; anything malformed starts afresh (it is rebuilt from the next manifest and the copies' stats). */
function parseState(text: string): PushState {
  try {
    const value = JSON.parse(text) as Partial<PushState>;
    if (value && typeof value.roots === "object" && typeof value.held === "object" && value.roots && value.held) return { roots: value.roots, held: value.held };
  } catch {
    /* rebuilt below */
  }
  return { roots: {}, held: {} };
}

async function flushState(workspaceRoot: string, machine: string, m: MachineState): Promise<void> {
  if (m.flush) clearTimeout(m.flush);
  m.flush = null;
  if (!m.dirty) return;
  m.dirty = false;
  const file = teamPushStatePath(workspaceRoot, machine);
  await serialized(file, () => writeFileAtomic(file, JSON.stringify(m.state), { durable: false }));
}

/** Writes the state a second after the last chunk (a push sends thousands; the copies' stats stay the truth meanwhile). */
function scheduleFlush(workspaceRoot: string, machine: string, m: MachineState): void {
  if (m.flush) return;
  m.flush = setTimeout(() => void flushState(workspaceRoot, machine, m).catch(() => undefined), 1_000);
  m.flush.unref();
}

/** Runs `fn` after every earlier call for the same `key` has settled. */
function serialized<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const before = queues.get(key) ?? Promise.resolve();
  const run = before.then(fn, fn);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return run;
}
