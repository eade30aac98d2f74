/**
 * A heavy user's home for the agents behind the source contract (issue 38), for
 * bench/agents.bench.ts: thousands of sessions per agent built from the real files of
 * ../shared/corpus/agents-home and the readers' fixtures, each with ids of its own, spread over
 * projects; a few "long" sessions (≥ 2,000 workspace lines) per agent made by repeating a
 * template's turns with fresh ids; and Claude Code sessions from ../shared/corpus/claude-code,
 * regular ones and long ones cut to the agents' long sessions' sizes, for comparison. Generation is
 * not timed: synchronous and simple.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import Database from "better-sqlite3";

import { OPENCODE_SCHEMA } from "@/lib/sources/opencode/__fixtures__/fixture-db";
import type { AgentSourceName } from "@/lib/sources/common/agent-source";
import type { FixtureRows } from "@/lib/sources/opencode/__fixtures__/fixture-db";
import { sessionFromRow } from "@/lib/sources/opencode/database";

const REPO = path.resolve(fileURLToPath(new URL("../", import.meta.url)));
/** The shared corpus (`../shared/corpus` beside the repository). */
export const CORPUS = path.resolve(REPO, "../shared/corpus");
const HOME = path.join(CORPUS, "agents-home");
const FIXTURES = path.join(REPO, "lib/sources");

/** The rows the bench prints: each agent, OpenCode twice (its database and its older `storage/` files). */
export type BenchSource = AgentSourceName | "opencode-storage";
export const BENCH_SOURCES: readonly BenchSource[] = ["gemini-cli", "copilot-cli", "opencode", "opencode-storage", "aider"];

/** The agent a bench source is read as (`opencode-storage` is OpenCode). */
export function agentOf(source: BenchSource): AgentSourceName {
  return source === "opencode-storage" ? "opencode" : source;
}

export type GenerateOptions = {
  /** Regular sessions per agent (a Gemini project's no-prompt chat comes on top). */
  sessions: number;
  /** Projects the sessions are spread over. */
  projects: number;
  /** Long sessions (≥ {@link LONG_LINES} workspace lines) per agent. */
  long: number;
};

/** What was generated for one bench source. */
export type GeneratedSource = {
  source: BenchSource;
  /** The root given to prepare (`agentRoots[agent] = [root]`). */
  root: string;
  /** The folder the yardstick copies (`cp -r`) and counts (`wc -l`). */
  copyRoot: string;
  /** Sessions written (regular + long + sessions with no prompt). */
  sessions: number;
  bytes: number;
  /** The long sessions' agent ids and sizes (the source's own bytes of that session). */
  long: { id: string; bytes: number }[];
  /** Adds one more session to the source (for the sync-after-a-change figure). */
  addOne: () => void;
};

export type GeneratedClaude = { root: string; sessions: number; bytes: number; long: Map<BenchSource, { id: string; bytes: number }[]> };

/** A long session has at least this many workspace lines (the 2,000-line window fits in it). */
export const LONG_LINES = 2_000;

const pad = (n: number, width: number) => String(n).padStart(width, "0");
/** A UUID of `kind` (4 hex digits), project `p`, session `s`. */
const uuid = (kind: number, p: number, s: number) => `${pad(kind, 4)}be38-${pad(p, 4)}-4000-8000-${pad(s, 12)}`;
const projectRoot = (source: string, p: number) => `/home/bench/${source}-${pad(p, 3)}`;

/** Writes `text` at `file` (folders made) and returns its bytes. */
function put(file: string, text: string): number {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return Buffer.byteLength(text);
}

/** `text` with each id of `ids` (as a whole JSON string) replaced by `map(id)`. */
function renameIds(text: string, ids: Iterable<string>, map: (id: string) => string): string {
  let out = text;
  for (const id of ids) out = out.replaceAll(`"${id}"`, `"${map(id)}"`);
  return out;
}

/** Every string value under a key named `id`, `…Id` or `…ID` (but `sessionId`) in a JSON value: the ids a repeated turn must not share. */
function idsIn(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) idsIn(v, out);
  else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (typeof v === "string" && /(^id|Id|ID)$/.test(k) && k !== "sessionId" && k !== "sessionID" && v !== "") out.add(v);
      else idsIn(v, out);
    }
  }
  return out;
}

// ---------------------------------------------------------------- Gemini CLI

type GeminiTemplate = { kind: "legacy"; header: Record<string, unknown>; messages: unknown[]; prompts: boolean } | { kind: "jsonl"; lines: string[]; subagent: boolean; sessionId: string };

function geminiTemplates(): GeminiTemplate[] {
  const out: GeminiTemplate[] = [];
  const legacy = [
    ...readdirSync(path.join(HOME, ".gemini/tmp")).flatMap((d) => {
      const chats = path.join(HOME, ".gemini/tmp", d, "chats");
      return readdirSync(chats).map((f) => path.join(chats, f));
    }),
    path.join(FIXTURES, "gemini-cli/__fixtures__/legacy.json"),
  ].sort();
  for (const file of legacy) {
    const { messages, ...header } = JSON.parse(readFileSync(file, "utf8")) as { messages: { type: string }[] };
    out.push({ kind: "legacy", header, messages, prompts: messages.some((m) => m.type === "user") });
  }
  for (const name of ["replay.jsonl", "subagent.jsonl"]) {
    const lines = readFileSync(path.join(FIXTURES, "gemini-cli/__fixtures__", name), "utf8").split("\n").filter((l) => l.trim() !== "");
    out.push({ kind: "jsonl", lines, subagent: name === "subagent.jsonl", sessionId: (JSON.parse(lines[0]!) as { sessionId: string }).sessionId });
  }
  return out;
}

/** `~/.gemini` with `tmp/<slug>/chats/`: legacy `.json` chats, the same converted to `.jsonl` (header + one line per message), the JSONL fixtures (a subagent chat in its parent's folder), one chat with no prompt per project. */
function generateGemini(dir: string, o: GenerateOptions): GeneratedSource {
  const home = path.join(dir, "home", ".gemini");
  const templates = geminiTemplates();
  // Subagent chats (prompted by their parent, so without a prompt of their own) and chats with no prompt come on top of the sessions.
  const withPrompts = templates.filter((t) => (t.kind === "jsonl" && !t.subagent) || (t.kind === "legacy" && t.prompts));
  const subagent = templates.find((t) => t.kind === "jsonl" && t.subagent)!;
  const noPrompt = templates.find((t) => t.kind === "legacy" && !t.prompts)!;
  const projects: Record<string, string> = {};
  for (let p = 0; p < o.projects; p++) projects[projectRoot("gemini", p)] = `bench-gemini-${pad(p, 3)}`;
  let bytes = put(path.join(home, "projects.json"), JSON.stringify({ projects }, null, 2));
  let sessions = 0;
  const write = (t: GeminiTemplate, p: number, s: number, asJsonl: boolean, parent: string | null): { id: string; bytes: number } => {
    const id = uuid(1, p, s);
    const root = projectRoot("gemini", p);
    const chats = path.join(home, "tmp", projects[root]!, "chats");
    const hash = createHash("sha256").update(root).digest("hex");
    const minute = `2026-05-${pad(1 + (s % 28), 2)}T${pad(s % 24, 2)}-${pad(p % 60, 2)}`;
    let file: string;
    let text: string;
    if (t.kind === "legacy") {
      const header = { ...t.header, sessionId: id, projectHash: hash };
      file = path.join(chats, `session-${minute}-${pad(s, 8)}.${asJsonl ? "jsonl" : "json"}`);
      text = asJsonl ? [JSON.stringify(header), ...t.messages.map((m) => JSON.stringify(m))].join("\n") + "\n" : JSON.stringify({ ...header, messages: t.messages }, null, 2);
    } else {
      file = t.subagent && parent !== null ? path.join(chats, parent, `${id}.jsonl`) : path.join(chats, `session-${minute}-${pad(s, 8)}.jsonl`);
      text = t.lines.join("\n").replaceAll(t.sessionId, id).replace(/"projectHash":"[0-9a-f]+"/, `"projectHash":"${hash}"`) + "\n";
    }
    sessions += 1;
    const n = put(file, text);
    bytes += n;
    return { id, bytes: n };
  };
  let extra = o.sessions;
  for (let s = 0; s < o.sessions; s++) {
    const p = s % o.projects;
    const t = withPrompts[Math.floor(s / o.projects) % withPrompts.length]!;
    const made = write(t, p, s, t.kind === "legacy" && Math.floor(s / (o.projects * withPrompts.length)) % 2 === 1, null);
    // Every 20th chat ran a subagent: its chat in the parent's folder.
    if (s % 20 === 19) write(subagent, p, extra++, true, made.id);
  }
  for (let p = 0; p < o.projects; p++) write(noPrompt, p, extra++, false, null);
  // Long: the mid-sized corpus chat's messages repeated (ids renamed) past LONG_LINES lines, as JSONL.
  const base = templates.filter((t): t is Extract<GeminiTemplate, { kind: "legacy" }> => t.kind === "legacy").sort((a, b) => a.messages.length - b.messages.length).at(-2)!;
  const baseIds = idsIn(base.messages);
  const long: GeneratedSource["long"] = [];
  for (let k = 0; k < o.long; k++) {
    const messages: unknown[] = [];
    for (let r = 0; messages.length < LONG_LINES; r++) {
      messages.push(...(JSON.parse(renameIds(JSON.stringify(base.messages), baseIds, (id) => `${id}-r${r}`)) as unknown[]));
    }
    long.push(write({ ...base, messages }, k % o.projects, extra++, k % 2 === 0, null));
  }
  return { source: "gemini-cli", root: home, copyRoot: home, sessions, bytes, long, addOne: () => void write(withPrompts[0]!, 0, 900_000 + extra++, false, null) };
}

// ---------------------------------------------------------------- Copilot CLI

type CopilotTemplate = { lines: string[]; sessionId: string; roots: string[] };

function copilotTemplates(): CopilotTemplate[] {
  const files = [
    ...readdirSync(path.join(HOME, ".copilot/session-state")).map((d) => path.join(HOME, ".copilot/session-state", d, "events.jsonl")),
    ...readdirSync(path.join(FIXTURES, "copilot-cli/__fixtures__/session-state")).map((d) => path.join(FIXTURES, "copilot-cli/__fixtures__/session-state", d, "events.jsonl")),
  ];
  return files.map((file) => {
    const lines = readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "");
    const start = JSON.parse(lines[0]!) as { data: { sessionId: string; context: { cwd?: string; gitRoot?: string } } };
    const roots = [start.data.context.gitRoot, start.data.context.cwd].filter((r): r is string => typeof r === "string");
    return { lines, sessionId: start.data.sessionId, roots: [...new Set(roots)].sort((a, b) => b.length - a.length) };
  });
}

/** `~/.copilot/session-state/<uuid>/events.jsonl` from the corpus session and the fixtures, the session id and project rewritten. */
function generateCopilot(dir: string, o: GenerateOptions): GeneratedSource {
  const state = path.join(dir, "home", ".copilot", "session-state");
  const templates = copilotTemplates();
  let bytes = 0;
  let sessions = 0;
  const write = (lines: string[], t: CopilotTemplate, p: number, s: number): { id: string; bytes: number } => {
    const id = uuid(2, p, s);
    let text = lines.join("\n").replaceAll(t.sessionId, id);
    for (const root of t.roots) text = text.replaceAll(`"${root}"`, `"${projectRoot("copilot", p)}"`);
    sessions += 1;
    const n = put(path.join(state, id, "events.jsonl"), `${text}\n`);
    bytes += n;
    return { id, bytes: n };
  };
  for (let s = 0; s < o.sessions; s++) {
    const t = templates[Math.floor(s / o.projects) % templates.length]!;
    write(t.lines, t, s % o.projects, s);
  }
  // Long: the corpus session's prompt-to-end events repeated (event ids renamed) past LONG_LINES lines.
  const t = templates[0]!;
  const first = t.lines.findIndex((l) => l.includes('"type":"user.message"'));
  const turn = t.lines.slice(first).filter((l) => !l.includes('"type":"session.shutdown"'));
  const turnIds = idsIn(turn.map((l) => JSON.parse(l) as unknown));
  const long: GeneratedSource["long"] = [];
  for (let k = 0; k < o.long; k++) {
    const lines = t.lines.slice(0, first);
    for (let r = 0; lines.length < LONG_LINES; r++) lines.push(...turn.map((l) => renameIds(l, turnIds, (id) => `${id}-r${r}`)));
    long.push(write(lines, t, k % o.projects, o.sessions + k));
  }
  let extra = 0;
  return { source: "copilot-cli", root: state, copyRoot: state, sessions, bytes, long, addOne: () => void write(t.lines, t, 0, 900_000 + extra++) };
}

// ---------------------------------------------------------------- OpenCode

type Obj = Record<string, unknown>;
/** A session as OpenCode's objects (ids inside): the session, each message followed by its parts. */
type OpencodeTemplate = { session: Obj; messages: { message: Obj; parts: Obj[] }[] };

/** The object in a JSON file; {} for a malformed one (the fixtures hold a half-written file). */
function readJson(file: string): Obj {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Obj;
  } catch {
    return {};
  }
}

/** The corpus `storage/` session, the fixture storage session, and the fixture database's top-level sessions. */
function opencodeTemplates(): OpencodeTemplate[] {
  const fromStorage = (storage: string): OpencodeTemplate[] => {
    const out: OpencodeTemplate[] = [];
    for (const project of readdirSync(path.join(storage, "session"))) {
      for (const name of readdirSync(path.join(storage, "session", project)).sort()) {
        const session = readJson(path.join(storage, "session", project, name));
        if (typeof session.id !== "string" || typeof session.directory !== "string") continue;
        const messageDir = path.join(storage, "message", session.id);
        const messages = readdirSync(messageDir)
          .sort()
          .map((m) => {
            // The file names are the ids (a fixture file may leave them out).
            const messageId = m.replace(/\.json$/, "");
            const partDir = path.join(storage, "part", messageId);
            const parts = (() => {
              try {
                return readdirSync(partDir)
                  .sort()
                  .map((f) => ({ id: f.replace(/\.json$/, ""), sessionID: session.id, messageID: messageId, ...readJson(path.join(partDir, f)) }));
              } catch {
                return [];
              }
            })();
            return { message: { id: messageId, sessionID: session.id, ...readJson(path.join(messageDir, m)) }, parts };
          });
        out.push({ session, messages });
      }
    }
    return out;
  };
  const rows = JSON.parse(readFileSync(path.join(FIXTURES, "opencode/__fixtures__/opencode-db.json"), "utf8")) as FixtureRows;
  const fromDb = rows.sessions
    .filter((s) => s.parent_id === undefined)
    .map((row) => {
      const id = row.id as string;
      const messages = rows.messages
        .filter((m) => m.session_id === id && typeof m.data === "object")
        .map((m) => ({
          message: { id: m.id, sessionID: id, ...(m.data as Obj) },
          parts: rows.parts.filter((p) => p.message_id === m.id && typeof p.data === "object").map((p) => ({ id: p.id, sessionID: id, messageID: m.id, ...(p.data as Obj) })),
        }));
      return { session: sessionFromRow(row), messages };
    });
  return [...fromStorage(path.join(HOME, ".local/share/opencode/storage")), ...fromStorage(path.join(FIXTURES, "opencode/__fixtures__/storage-home/storage")), ...fromDb];
}

/**
 * The template as session `s` of project `p`: new session, message and part ids (`<prefix>_<rep><s>_<old>`:
 * ids ascend with the repetition, as OpenCode's with time), the project's directory, times moved on by a minute a repetition.
 */
function opencodeSession(t: OpencodeTemplate, p: number, s: number, repeats: number): OpencodeTemplate {
  const root = projectRoot("opencode", p);
  const oldRoot = t.session.directory as string;
  const sessionId = `ses_${pad(s, 7)}bench${String(t.session.id).slice(4, 12)}`;
  const ids = new Set<string>();
  for (const m of t.messages) {
    ids.add(m.message.id as string);
    for (const part of m.parts) ids.add(part.id as string);
  }
  const messages: OpencodeTemplate["messages"] = [];
  for (let r = 0; r < repeats; r++) {
    const text = renameIds(JSON.stringify(t.messages), [...ids, t.session.id as string], (id) => (id === t.session.id ? sessionId : `${id.slice(0, 4)}${pad(r, 4)}${pad(s, 7)}_${id.slice(4)}`)).replaceAll(oldRoot, root);
    const shift = (o: Obj): Obj => {
      const time = o.time as Obj | undefined;
      if (time && r > 0) for (const k of Object.keys(time)) if (typeof time[k] === "number") time[k] = (time[k] as number) + r * 60_000;
      return o;
    };
    for (const m of JSON.parse(text) as OpencodeTemplate["messages"]) messages.push({ message: shift(m.message), parts: m.parts });
  }
  const time = { ...(t.session.time as Obj) };
  if (repeats > 1 && typeof time.updated === "number") time.updated += repeats * 60_000;
  return { session: { ...t.session, id: sessionId, directory: root, projectID: `prj_bench${pad(p, 3)}`, time }, messages };
}

const timeOf = (o: Obj, key: "created" | "updated"): number => {
  const time = o.time as Obj | undefined;
  const v = time?.[key] ?? time?.created ?? time?.start;
  return typeof v === "number" ? v : 1_760_000_000_000;
};


/** `<data>/opencode.db` in WAL mode, written in one transaction and checkpointed. */
function generateOpencodeDb(dir: string, o: GenerateOptions): GeneratedSource {
  const data = path.join(dir, "home", ".local", "share", "opencode");
  mkdirSync(data, { recursive: true });
  const db = new Database(path.join(data, "opencode.db"));
  db.pragma("journal_mode = WAL");
  db.exec(OPENCODE_SCHEMA);
  const insertSession = db.prepare(
    "INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated, summary_additions, summary_deletions, summary_files, revert) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const insertMessage = db.prepare("INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)");
  const insertPart = db.prepare("INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)");
  let bytes = 0;
  let sessions = 0;
  const strip = (obj: Obj, keys: string[]) => JSON.stringify(Object.fromEntries(Object.entries(obj).filter(([k]) => !keys.includes(k))));
  const write = (t: OpencodeTemplate, p: number, s: number, repeats: number): { id: string; bytes: number } => {
    const { session, messages } = opencodeSession(t, p, s, repeats);
    const summary = session.summary as Obj | undefined;
    const revert = session.revert === undefined ? null : JSON.stringify(session.revert);
    insertSession.run(session.id, session.projectID, session.slug ?? `bench-${s}`, session.directory, session.title ?? "untitled", session.version ?? "1.2.10", timeOf(session, "created"), timeOf(session, "updated"), summary?.additions ?? null, summary?.deletions ?? null, summary?.files ?? null, revert);
    let n = 0;
    for (const { message, parts } of messages) {
      const text = strip(message, ["id", "sessionID"]);
      n += text.length;
      insertMessage.run(message.id, session.id, timeOf(message, "created"), timeOf(message, "updated"), text);
      for (const part of parts) {
        const partText = strip(part, ["id", "sessionID", "messageID"]);
        n += partText.length;
        insertPart.run(part.id, message.id, session.id, timeOf(message, "created"), timeOf(message, "updated"), partText);
      }
    }
    sessions += 1;
    return { id: session.id as string, bytes: n };
  };
  const templates = opencodeTemplates();
  const long: GeneratedSource["long"] = [];
  db.transaction(() => {
    for (let s = 0; s < o.sessions; s++) write(templates[Math.floor(s / o.projects) % templates.length]!, s % o.projects, s, 1);
    for (let k = 0; k < o.long; k++) long.push(write(templates[0]!, k % o.projects, o.sessions + k, repeatsFor(templates[0]!)));
  })();
  db.close();
  for (const f of readdirSync(data)) bytes += statSync(path.join(data, f)).size;
  let extra = 0;
  return {
    source: "opencode",
    root: data,
    copyRoot: data,
    sessions,
    bytes,
    long,
    addOne: () => {
      const again = new Database(path.join(data, "opencode.db"));
      try {
        const add = () => {
          const { session, messages } = opencodeSession(templates[0]!, 0, 900_000 + extra++, 1);
          again.prepare("INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?)").run(session.id, session.projectID, "bench-extra", session.directory, session.title ?? "untitled", session.version ?? "1.2.10", timeOf(session, "created"), Date.now());
          for (const { message, parts } of messages) {
            again.prepare("INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)").run(message.id, session.id, timeOf(message, "created"), timeOf(message, "updated"), strip(message, ["id", "sessionID"]));
            for (const part of parts) again.prepare("INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)").run(part.id, message.id, session.id, timeOf(message, "created"), timeOf(message, "updated"), strip(part, ["id", "sessionID", "messageID"]));
          }
        };
        again.transaction(add)();
      } finally {
        again.close();
      }
    },
  };
}

/** How many repetitions of a template's messages make a session of at least {@link LONG_LINES} workspace lines. */
function repeatsFor(t: OpencodeTemplate): number {
  const perRepeat = t.messages.reduce((n, m) => n + 1 + m.parts.length, 0);
  return Math.ceil((LONG_LINES - 1) / perRepeat);
}

/** The older layout: `storage/session/<projectID>/<ses>.json`, `storage/message/<ses>/<msg>.json`, `storage/part/<msg>/<prt>.json` (pretty JSON, as OpenCode wrote it). */
function generateOpencodeStorage(dir: string, o: GenerateOptions): GeneratedSource {
  const data = path.join(dir, "home-storage", ".local", "share", "opencode");
  const storage = path.join(data, "storage");
  const templates = opencodeTemplates();
  let bytes = 0;
  let sessions = 0;
  const write = (t: OpencodeTemplate, p: number, s: number, repeats: number): { id: string; bytes: number } => {
    const { session, messages } = opencodeSession(t, p, s, repeats);
    let n = put(path.join(storage, "session", session.projectID as string, `${session.id as string}.json`), JSON.stringify(session, null, 2));
    for (const { message, parts } of messages) {
      n += put(path.join(storage, "message", session.id as string, `${message.id as string}.json`), JSON.stringify(message, null, 2));
      for (const part of parts) n += put(path.join(storage, "part", message.id as string, `${part.id as string}.json`), JSON.stringify(part, null, 2));
    }
    sessions += 1;
    bytes += n;
    return { id: session.id as string, bytes: n };
  };
  for (let s = 0; s < o.sessions; s++) write(templates[Math.floor(s / o.projects) % templates.length]!, s % o.projects, s, 1);
  const long: GeneratedSource["long"] = [];
  for (let k = 0; k < o.long; k++) long.push(write(templates[0]!, k % o.projects, o.sessions + k, repeatsFor(templates[0]!)));
  let extra = 0;
  return { source: "opencode-storage", root: data, copyRoot: storage, sessions, bytes, long, addOne: () => void write(templates[0]!, 0, 900_000 + extra++, 1) };
}

// ---------------------------------------------------------------- Aider

/** The runs (their lines after the header) of the corpus history and the fixtures' histories. */
function aiderRuns(): { withPrompt: string[][]; empty: string[] } {
  const files = [path.join(HOME, "src/myrepo/.aider.chat.history.md"), path.join(FIXTURES, "aider/__fixtures__/projects/webshop/.aider.chat.history.md"), path.join(FIXTURES, "aider/__fixtures__/projects/archive/legacy/.aider.chat.history.md")];
  const withPrompt: string[][] = [];
  let empty: string[] = [];
  for (const file of files) {
    const lines = readFileSync(file, "utf8").split("\n");
    let run: string[] | null = null;
    const flush = () => {
      if (run === null) return;
      while (run.length > 0 && run.at(-1)!.trim() === "") run.pop();
      if (run.some((l) => l.startsWith("#### "))) withPrompt.push(run);
      else empty = run;
    };
    for (const line of lines) {
      if (line.startsWith("# aider chat started at ")) {
        flush();
        run = [];
      } else run?.push(line);
    }
    flush();
  }
  return { withPrompt, empty };
}

/** Project folders `<p>/.aider.chat.history.md`, each with many runs (every run a session) one minute apart, and one run with no prompt. */
function generateAider(dir: string, o: GenerateOptions): GeneratedSource {
  const root = path.join(dir, "home", "src");
  const { withPrompt, empty } = aiderRuns();
  const perProject = Math.ceil(o.sessions / o.projects);
  const longBody = (() => {
    const turn = withPrompt.reduce((a, b) => (b.length > a.length ? b : a));
    const from = turn.findIndex((l) => l.startsWith("#### "));
    const lines = turn.slice(0, from);
    while (lines.length < LONG_LINES) lines.push(...turn.slice(from), "");
    return lines;
  })();
  let bytes = 0;
  let sessions = 0;
  const long: GeneratedSource["long"] = [];
  const stamp = (p: number, k: number) => {
    const d = new Date(Date.UTC(2026, 4, 1, 8, 0, 0) + (p * 10_000 + k) * 60_000);
    return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)} ${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}`;
  };
  const files = new Map<number, string[]>();
  let made = 0;
  for (let p = 0; p < o.projects; p++) {
    const out: string[] = [];
    let k = 0;
    for (; k < perProject && made < o.sessions; k++, made++) {
      out.push(`# aider chat started at ${stamp(p, k)}`, ...withPrompt[(p + k) % withPrompt.length]!, "");
      sessions += 1;
    }
    for (let l = 0; l < o.long; l++) {
      if (l % o.projects !== p) continue;
      const run = [`# aider chat started at ${stamp(p, k++)}`, ...longBody, ""];
      out.push(...run);
      sessions += 1;
      long.push({ id: `bench-aider-${pad(p, 3)}-${stamp(p, k - 1).replace(/[-: ]/g, "").replace(/^(\d{8})/, "$1T")}`, bytes: Buffer.byteLength(run.join("\n")) + 1 });
    }
    out.push(`# aider chat started at ${stamp(p, k++)}`, ...empty, "");
    sessions += 1;
    files.set(p, out);
  }
  for (const [p, out] of files) bytes += put(path.join(root, `bench-aider-${pad(p, 3)}`, ".aider.chat.history.md"), out.join("\n"));
  let extra = 0;
  return {
    source: "aider",
    root,
    copyRoot: root,
    sessions,
    bytes,
    long,
    addOne: () => {
      const file = path.join(root, `bench-aider-${pad(o.projects, 3)}`, ".aider.chat.history.md");
      put(file, `# aider chat started at ${stamp(o.projects, extra++)}\n${withPrompt[0]!.join("\n")}\n`);
    },
  };
}

// ---------------------------------------------------------------- Claude Code

/** The corpus's Claude Code main transcripts (no subagents), their lines with the session id and cwd made placeholders. */
function claudeTemplates(): string[] {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== "subagents") walk(full);
      } else if (e.name.endsWith(".jsonl") && !e.name.startsWith("agent-")) files.push(full);
    }
  };
  walk(path.join(CORPUS, "claude-code"));
  return files
    .sort()
    .map((f) => readFileSync(f, "utf8").split("\n").filter((l) => l.trim() !== "").join("\n") + "\n")
    .filter((t) => t.includes('"type":"user"') && !t.includes('"isSidechain":true'))
    .map((t) => t.replace(/"sessionId":"[^"]*"/g, '"sessionId":"__SID__"').replace(/"cwd":"[^"]*"/g, '"cwd":"__CWD__"'));
}

/**
 * A Claude Code projects root with `o.sessions` sessions (the corpus transcripts in turn) over
 * `o.projects` projects, and for each agent's long session one Claude session of about its size
 * and at least {@link LONG_LINES} lines (the corpus transcripts one after another, cut at a line end).
 */
export function generateClaude(dir: string, o: GenerateOptions, longOf: Map<BenchSource, { bytes: number }[]>): GeneratedClaude {
  const root = path.join(dir, "claude", "projects");
  const templates = claudeTemplates();
  let bytes = 0;
  let sessions = 0;
  const write = (template: string, p: number, s: number): { id: string; bytes: number } => {
    const id = uuid(9, p, s);
    const cwd = projectRoot("claude", p);
    const n = put(path.join(root, cwd.replaceAll("/", "-"), `${id}.jsonl`), template.replaceAll("__SID__", id).replaceAll("__CWD__", cwd));
    bytes += n;
    sessions += 1;
    return { id, bytes: n };
  };
  for (let s = 0; s < o.sessions; s++) write(templates[Math.floor(s / o.projects) % templates.length]!, s % o.projects, s);
  const all = templates.join("");
  const long = new Map<BenchSource, { id: string; bytes: number }[]>();
  let s = o.sessions;
  for (const [source, sizes] of longOf) {
    long.set(
      source,
      sizes.map((size, k) => {
        let text = all;
        const lines = () => text.split("\n").length - 1;
        while (text.length < size.bytes || lines() < LONG_LINES) text += all;
        let end = text.indexOf("\n", size.bytes);
        for (let n = 0, at = -1; n < LONG_LINES; n++) {
          at = text.indexOf("\n", at + 1);
          end = Math.max(end, at);
        }
        return write(text.slice(0, end + 1), k % o.projects, s++);
      }),
    );
  }
  return { root, sessions, bytes, long };
}

const GENERATORS: Record<BenchSource, (dir: string, o: GenerateOptions) => GeneratedSource> = {
  "gemini-cli": generateGemini,
  "copilot-cli": generateCopilot,
  opencode: generateOpencodeDb,
  "opencode-storage": generateOpencodeStorage,
  aider: generateAider,
};

/** Generates the sessions of each of `sources` under `dir` (see the module comment). */
export function generateAgents(dir: string, o: GenerateOptions, sources: readonly BenchSource[] = BENCH_SOURCES): Map<BenchSource, GeneratedSource> {
  return new Map(sources.map((s) => [s, GENERATORS[s](dir, o)]));
}
