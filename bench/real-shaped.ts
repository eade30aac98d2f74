/**
 * Real-shaped benchmark sessions (issue 13): one ≥ 900 MB Claude Code session with ≥ 15,000
 * turns and one ≥ 300 MB Codex rollout, both made only of real corpus lines
 * (../shared/corpus), plus a prepared workspace over them.
 *
 * Claude Code: every round appends every main transcript of the corpus once (the big
 * tool-result-heavy phantom-reads sessions, the 2.7 MB compaction session, …) followed by
 * `DENSE_REPEATS` copies of the short turn-dense transcripts, so the file keeps the corpus'
 * line-size distribution while reaching real long-session turn density (~17 turns/MB). Every
 * copy after the first gets fresh assistant message ids (`"id":"msg_…"` → `"id":"msg_c<copy>_…"`,
 * {@link freshMessageIds}): a real session never repeats one, and lib/usage counts a message once
 * by its id, so repeated ids left the 959 MB session with 374 token points instead of ~70,000. The
 * corpus subagent transcripts and tool-result files are attached once under
 * `<stem>/subagents/` and `<stem>/tool-results/`, as Claude Code lays them out.
 *
 * Codex: every envelope-era rollout of the corpus, round after round; only the very first
 * `session_meta` line is kept (later ones would make the file a different session).
 *
 * Everything is cached under `/tmp/casefile-bench/real-shaped/` and reused while the sizes in
 * its `meta.json` still match. Usage: `await ensureRealShapedSessions()`,
 * `await ensureRealShapedWorkspace()`; `npx tsx bench/real-shaped.ts` builds both and prints
 * what it made.
 */
import { existsSync, readdirSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

/** Root of every real-shaped artefact (outside the repository: ~1.3 GB). */
export const REAL_SHAPED_DIR = process.env.CASEFILE_REAL_SHAPED_DIR ?? "/tmp/casefile-bench/real-shaped";
/** Minimum size of the Claude Code session, bytes. */
export const CLAUDE_TARGET_BYTES = 950_000_000;
/** Minimum size of the Codex session, bytes. */
export const CODEX_TARGET_BYTES = 320_000_000;
/** Minimum number of Claude Code turns (human triggers). */
export const CLAUDE_MIN_TURNS = 15_000;
/** Bumped whenever the recipe changes, so cached files are rebuilt (2: fresh message ids per copy). */
const RECIPE_VERSION = 2;
/** Copies of the turn-dense short transcripts per round. */
const DENSE_REPEATS = 4;
/** A transcript under this many bytes counts as "short and turn-dense". */
const DENSE_MAX_BYTES = 400_000;

const CORPUS_DIR = path.resolve(fileURLToPath(new URL("../", import.meta.url)), "../shared/corpus");
/** Session id (file stem) of the generated Claude Code session. */
export const CLAUDE_SESSION_ID = "7e57da7a-0000-4000-8000-000000000913";
const CODEX_FILE = "rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl";

/** What {@link ensureRealShapedSessions} returns: absolute paths and shape of both sessions. */
export type RealShapedSessions = {
  /** Claude Code projects root to pass to prepare (`claudeRoots`). */
  claudeRoot: string;
  /** Codex sessions root to pass to prepare (`codexRoots`). */
  codexRoot: string;
  /** The Claude Code main transcript. */
  claude: string;
  /** The Codex rollout. */
  codex: string;
  claudeStats: FileStats;
  codexStats: FileStats;
};

/** Bytes, physical lines (newline count) and, for Claude Code, human-trigger rounds. */
export type FileStats = { bytes: number; lines: number; rounds: number };

type Meta = { version: number; claude: FileStats; codex: FileStats };

/**
 * Builds (or reuses) both real-shaped sessions under {@link REAL_SHAPED_DIR}. Generation streams
 * ~1.3 GB to disk (about 10–30 s); reuse costs two `stat`s.
 * @throws Error when ../shared/corpus is absent (the sessions must be made of real lines), or
 *   the fs error when /tmp cannot be written.
 */
export async function ensureRealShapedSessions(): Promise<RealShapedSessions> {
  const claudeRoot = path.join(REAL_SHAPED_DIR, "claude", "projects");
  const projectDir = path.join(claudeRoot, "-bench-real-shaped");
  const codexRoot = path.join(REAL_SHAPED_DIR, "codex", "sessions");
  const claude = path.join(projectDir, `${CLAUDE_SESSION_ID}.jsonl`);
  const codex = path.join(codexRoot, "2026", "05", "11", CODEX_FILE);
  const metaPath = path.join(REAL_SHAPED_DIR, "meta.json");
  const meta = await readMeta(metaPath);
  if (meta && meta.version === RECIPE_VERSION && (await sizeOf(claude)) === meta.claude.bytes && (await sizeOf(codex)) === meta.codex.bytes) {
    return { claudeRoot, codexRoot, claude, codex, claudeStats: meta.claude, codexStats: meta.codex };
  }
  if (!existsSync(CORPUS_DIR)) throw new Error(`real-shaped bench needs the corpus at ${CORPUS_DIR}`);
  await fs.rm(REAL_SHAPED_DIR, { recursive: true, force: true });
  const claudeStats = await buildClaude(projectDir, claude);
  const codexStats = await buildCodex(codex);
  await fs.writeFile(metaPath, `${JSON.stringify({ version: RECIPE_VERSION, claude: claudeStats, codex: codexStats } satisfies Meta)}\n`);
  return { claudeRoot, codexRoot, claude, codex, claudeStats, codexStats };
}

/** What {@link ensureRealShapedWorkspace} returns. */
export type RealShapedWorkspace = RealShapedSessions & {
  /** Workspace root (pass to `createCoreContext` or `casefile start --workspace`). */
  workspace: string;
  claudeSession: { project_key: string; session_ref: string; lines: number; turns: number };
  codexSession: { project_key: string; session_ref: string; lines: number; turns: number };
  /** Milliseconds the prepare took; null when an existing workspace was reused. */
  prepareMs: number | null;
};

/**
 * Prepares (or reuses) a workspace over both real-shaped sessions at
 * `<REAL_SHAPED_DIR>/workspace` with the current `prepareWorkspace` (all-time window). The
 * workspace is reused while its `bench-stamp.json` names the same session sizes; `fresh: true`
 * rebuilds it (and its line indexes) from scratch, its audit ledger dropped. `workspace` overrides the directory (one per
 * helper on a shared machine).
 * @throws whatever prepare throws, or Error when a session is missing from the result.
 */
export async function ensureRealShapedWorkspace(options: { fresh?: boolean; workspace?: string } = {}): Promise<RealShapedWorkspace> {
  const sessions = await ensureRealShapedSessions();
  const workspace = options.workspace ?? path.join(REAL_SHAPED_DIR, "workspace");
  const stampPath = path.join(workspace, "bench-stamp.json");
  const stamp = JSON.stringify({ claude: sessions.claudeStats.bytes, codex: sessions.codexStats.bytes });
  let prepareMs: number | null = null;
  const existing = await fs.readFile(stampPath, "utf8").catch(() => null);
  if (options.fresh || existing !== stamp) {
    // Prepare never touches the audit ledger (it is permanent), but every bench run appends to
    // this one (each window read is a traced call) and the server keeps an index of it: a fresh
    // bench workspace starts with none, like a new user's, so runs measure the same server.
    await fs.rm(path.join(workspace, "audit"), { recursive: true, force: true });
    prepareMs = await prepareRealShaped(sessions, workspace);
    await fs.writeFile(stampPath, stamp);
  }
  const rows = await readIndexRows(workspace);
  const find = (source: string) => {
    const row = rows.find((r) => r.source === source);
    if (!row) throw new Error(`prepared workspace ${workspace} has no ${source} session`);
    return { project_key: row.project_key, session_ref: row.session_ref, lines: row.target_end_line, turns: row.turns };
  };
  return { ...sessions, workspace, claudeSession: find("claude-code"), codexSession: find("codex"), prepareMs };
}

/**
 * Runs `prepareWorkspace` over both sessions into `workspace` (force: a full rebuild) and
 * returns its wall time in ms. Exposed so a bench can time it repeatedly.
 */
export async function prepareRealShaped(sessions: RealShapedSessions, workspace: string): Promise<number> {
  const { createCoreContext } = await import("@/lib/context");
  const { prepareWorkspace } = await import("@/lib/workspace/prepare");
  await fs.mkdir(workspace, { recursive: true });
  const ctx = createCoreContext(workspace);
  const t0 = performance.now();
  await prepareWorkspace(ctx, { claudeRoots: [sessions.claudeRoot], codexRoots: [sessions.codexRoot], force: true });
  return performance.now() - t0;
}

type IndexRowSummary = { project_key: string; session_ref: string; source: string; target_end_line: number; turns: number };

async function readIndexRows(workspace: string): Promise<IndexRowSummary[]> {
  const projects = path.join(workspace, "projects");
  const rows: IndexRowSummary[] = [];
  for (const key of await fs.readdir(projects)) {
    const raw = await fs.readFile(path.join(projects, key, "sessions.index.jsonl"), "utf8").catch(() => "");
    for (const line of raw.split("\n")) {
      if (line.trim() === "") continue;
      const row = JSON.parse(line) as { session_ref: string; source: string; target_end_line: number; turns: unknown[] };
      rows.push({ project_key: key, session_ref: row.session_ref, source: row.source, target_end_line: row.target_end_line, turns: row.turns.length });
    }
  }
  return rows;
}

function corpusFiles(sub: string): string[] {
  return readdirSync(path.join(CORPUS_DIR, sub), { recursive: true, encoding: "utf8" })
    .sort()
    .map((name) => path.join(CORPUS_DIR, sub, name));
}

/** A streaming appender that batches small pieces into ~8 MB writes. */
class Appender {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  bytes = 0;
  lines = 0;
  constructor(private readonly handle: fs.FileHandle) {}
  async add(piece: Buffer): Promise<void> {
    this.pending.push(piece);
    this.pendingBytes += piece.length;
    this.bytes += piece.length;
    this.lines += countNewlines(piece);
    if (this.pendingBytes >= 8 << 20) await this.flush();
  }
  async flush(): Promise<void> {
    if (this.pendingBytes === 0) return;
    await this.handle.write(Buffer.concat(this.pending, this.pendingBytes));
    this.pending = [];
    this.pendingBytes = 0;
  }
}

function countNewlines(buf: Buffer): number {
  let n = 0;
  for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) n++;
  return n;
}

function withFinalNewline(bytes: Buffer): Buffer {
  return bytes.length === 0 || bytes[bytes.length - 1] === 0x0a ? bytes : Buffer.concat([bytes, Buffer.from("\n")]);
}

/** Human-trigger-free check: a file whose first record says isSidechain is a subagent. */
function isSidechain(bytes: Buffer): boolean {
  const end = bytes.indexOf(10);
  return /"isSidechain":\s*true/.test(bytes.subarray(0, end === -1 ? bytes.length : end).toString("utf8"));
}

async function buildClaude(projectDir: string, target: string): Promise<FileStats> {
  const files = corpusFiles("claude-code");
  const mains: Buffer[] = [];
  const subagents: string[] = [];
  const toolResults: string[] = [];
  for (const file of files) {
    if (file.includes(`${path.sep}tool-results${path.sep}`)) toolResults.push(file);
    else if (!file.endsWith(".jsonl")) continue;
    else {
      const bytes = withFinalNewline(await fs.readFile(file));
      if (isSidechain(bytes)) subagents.push(file);
      else mains.push(bytes);
    }
  }
  const dense = mains.filter((b) => b.length < DENSE_MAX_BYTES);
  await fs.mkdir(path.join(projectDir, CLAUDE_SESSION_ID, "subagents"), { recursive: true });
  await fs.mkdir(path.join(projectDir, CLAUDE_SESSION_ID, "tool-results"), { recursive: true });
  for (const file of subagents) {
    const name = path.basename(file).startsWith("agent-") ? path.basename(file) : `agent-${path.basename(file)}`;
    await fs.copyFile(file, path.join(projectDir, CLAUDE_SESSION_ID, "subagents", name));
  }
  for (const file of toolResults) await fs.copyFile(file, path.join(projectDir, CLAUDE_SESSION_ID, "tool-results", path.basename(file)));

  const partial = `${target}.${process.pid}.partial`;
  const handle = await fs.open(partial, "w");
  const out = new Appender(handle);
  let rounds = 0;
  try {
    let copy = 0;
    while (out.bytes < CLAUDE_TARGET_BYTES) {
      for (const bytes of mains) await out.add(freshMessageIds(bytes, copy++));
      for (let i = 0; i < DENSE_REPEATS; i++) for (const bytes of dense) await out.add(freshMessageIds(bytes, copy++));
      rounds++;
    }
    await out.flush();
  } finally {
    await handle.close();
  }
  await fs.rename(partial, target);
  return { bytes: out.bytes, lines: out.lines, rounds };
}

const MESSAGE_ID = '"id":"msg_';

/**
 * `bytes` (a whole transcript) with every assistant message id `"id":"msg_X"` made unique to copy
 * number `copy` (`"id":"msg_c<copy>_X"`); copy 0 is returned as is, so the first copy keeps the
 * corpus' own ids. Only that exact key-and-prefix is touched (tool ids are `toolu_…`, records'
 * `uuid`s are left alone). Exported for its test.
 */
export function freshMessageIds(bytes: Buffer, copy: number): Buffer {
  if (copy === 0) return bytes;
  // latin1 maps each byte to one char and back: the rest of the file is kept byte for byte.
  return Buffer.from(bytes.toString("latin1").replaceAll(MESSAGE_ID, `${MESSAGE_ID}c${copy}_`), "latin1");
}

async function buildCodex(target: string): Promise<FileStats> {
  const envelope: Buffer[] = [];
  for (const file of corpusFiles("codex")) {
    if (!file.endsWith(".jsonl")) continue;
    const bytes = withFinalNewline(await fs.readFile(file));
    if (!bytes.subarray(0, 200).toString("utf8").includes('"type":"session_meta"')) continue; // legacy pre-envelope
    envelope.push(bytes);
  }
  const first = envelope.find((b) => b.includes(Buffer.from('"id":"019e1625-789d-76c0-80ab-3724b5ddb799"'))) ?? envelope[0]!;
  const ordered = [first, ...envelope.filter((b) => b !== first)];
  const withoutMeta = ordered.map((b) => dropSessionMeta(b));
  await fs.mkdir(path.dirname(target), { recursive: true });
  const partial = `${target}.${process.pid}.partial`;
  const handle = await fs.open(partial, "w");
  const out = new Appender(handle);
  let rounds = 0;
  try {
    await out.add(firstLine(first));
    while (out.bytes < CODEX_TARGET_BYTES) {
      for (const bytes of withoutMeta) await out.add(bytes);
      rounds++;
    }
    await out.flush();
  } finally {
    await handle.close();
  }
  await fs.rename(partial, target);
  return { bytes: out.bytes, lines: out.lines, rounds };
}

function firstLine(bytes: Buffer): Buffer {
  return bytes.subarray(0, bytes.indexOf(10) + 1);
}

function dropSessionMeta(bytes: Buffer): Buffer {
  const kept: Buffer[] = [];
  let start = 0;
  while (start < bytes.length) {
    const nl = bytes.indexOf(10, start);
    const end = nl === -1 ? bytes.length : nl + 1;
    const line = bytes.subarray(start, end);
    if (!line.subarray(0, 80).toString("utf8").includes('"type":"session_meta"')) kept.push(line);
    start = end;
  }
  return Buffer.concat(kept);
}

async function sizeOf(file: string): Promise<number | null> {
  try {
    return (await fs.stat(file)).size;
  } catch {
    return null;
  }
}

async function readMeta(metaPath: string): Promise<Meta | null> {
  try {
    return JSON.parse(await fs.readFile(metaPath, "utf8")) as Meta;
  } catch {
    return null;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const t0 = performance.now();
  const ws = await ensureRealShapedWorkspace({ fresh: process.argv.includes("--fresh") });
  const mb = (n: number) => `${(n / 1e6).toFixed(0)} MB`;
  console.log(`ready in ${((performance.now() - t0) / 1000).toFixed(1)} s (prepare ${ws.prepareMs === null ? "reused" : `${(ws.prepareMs / 1000).toFixed(1)} s`})`);
  console.log(`claude-code ${ws.claude}: ${mb(ws.claudeStats.bytes)}, ${ws.claudeSession.lines} lines, ${ws.claudeSession.turns} turns → ${ws.claudeSession.project_key}/${ws.claudeSession.session_ref}`);
  console.log(`codex ${ws.codex}: ${mb(ws.codexStats.bytes)}, ${ws.codexSession.lines} lines, ${ws.codexSession.turns} turns → ${ws.codexSession.project_key}/${ws.codexSession.session_ref}`);
  console.log(`workspace: ${ws.workspace}`);
}

/** The real-shaped Claude Code session in a bench workspace: its project, ref and workspace copy. */
export type RealShapedTarget = { project_key: string; session_ref: string; file: string };

/**
 * The real-shaped Claude Code session of `workspace`, preparing the workspace first when it was
 * prepared from other session sizes (or never): a bench's own workspace, kept between runs.
 * @throws when the prepared workspace holds no Claude Code session.
 */
export async function realShapedTarget(workspace: string): Promise<RealShapedTarget> {
  const sessions = await ensureRealShapedSessions();
  const stampPath = path.join(workspace, "bench-stamp.json");
  const stamp = JSON.stringify({ claude: sessions.claudeStats.bytes, codex: sessions.codexStats.bytes });
  if ((await fs.readFile(stampPath, "utf8").catch(() => null)) !== stamp) {
    const ms = await prepareRealShaped(sessions, workspace);
    console.log(`prepared ${workspace} in ${(ms / 1000).toFixed(1)} s`);
    await fs.writeFile(stampPath, stamp);
  }
  const projects = path.join(workspace, "projects");
  for (const key of await fs.readdir(projects)) {
    const index = await fs.readFile(path.join(projects, key, "sessions.index.jsonl"), "utf8").catch(() => "");
    for (const line of index.split("\n").filter(Boolean)) {
      const row = JSON.parse(line) as { session_ref: string; source: string; session_path: string };
      if (row.source === "claude-code") return { project_key: key, session_ref: row.session_ref, file: path.join(projects, key, row.session_path) };
    }
  }
  throw new Error("no Claude Code session in the bench workspace");
}
