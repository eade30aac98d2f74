/** Tests of the workspace catalog: built by prepare, kept in step incrementally, searched. */
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it, vi } from "vitest";

import { catalogDb, closeCatalog } from "@/lib/catalog/catalog";
import { fillFullText } from "@/lib/catalog/full-text-index";
import { refreshCatalog } from "@/lib/catalog/refresh";
import { requestFullTextFill } from "@/lib/catalog/full-text-fill";
import { lineFacts } from "@/lib/catalog/extract";
import { catalogListSessions, catalogProjects } from "@/lib/catalog/queries";
import { type SearchHit, searchSessionsInputSchema } from "@/lib/catalog/schema";
import { searchSessions } from "@/lib/catalog/search";
import { catalogUsage } from "@/lib/catalog/usage";
import { createCoreContext, type CoreContext } from "@/lib/context";
import { listSessions } from "@/lib/forensics/__fixtures__/list-sessions";
import { getUsage } from "@/lib/forensics/__fixtures__/usage-tool";
import { startWorker, untilOutput } from "@/lib/testing/bundle-worker";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { loadWorkspace } from "@/lib/workspace/load";
import { listProjects } from "@/lib/workspace/projects";
import { sessionFilesAt } from "@/lib/workspace/sessions";
import { catalogPath } from "@/lib/fs/workspace-layout";
import type { GetUsageInput } from "@/lib/usage/schema";
import { pricingOverrideFile } from "@/lib/workspace/sources";
import { CountedUsages } from "@/lib/workspace/session-usage";
import { syncWorkspace } from "@/lib/workspace/sync";

const CLAUDE = path.join(SHARED_DIR, "corpus", "claude-code");
const CODEX = path.join(SHARED_DIR, "corpus", "codex");

/** Every catalog row but the row ids, stamps and risk (filled lazily by the session list). */
function dump(ctx: CoreContext) {
  const db = catalogDb(ctx);
  const refOf = new Map((db.prepare("SELECT id, project_key || '/' || session_ref AS ref FROM sessions").all() as { id: number; ref: string }[]).map((r) => [r.id, r.ref]));
  const ref = (id: unknown) => refOf.get(id as number) ?? `?${String(id)}`;
  const strip = (row: Record<string, unknown>, keys: string[]) => Object.fromEntries(Object.entries(row).filter(([k]) => !keys.includes(k)));
  return {
    projects: db.prepare("SELECT * FROM projects ORDER BY project_key").all(),
    sessions: (db.prepare("SELECT * FROM sessions ORDER BY project_key, session_ref").all() as Record<string, unknown>[]).map((r) => strip(r, ["id", "risk_stamp", "risk_level", "reset_count"])),
    turns: (db.prepare("SELECT * FROM turns").all() as Record<string, unknown>[]).map((r) => ({ ...r, session_id: ref(r.session_id) })).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    docs: (db.prepare("SELECT session_id, kind, name, rel_path, stamp, head_sha, indexed_bytes, indexed_lines FROM search_docs").all() as Record<string, unknown>[]).map((r) => ({ ...r, session_id: ref(r.session_id) })).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    // Each indexed line by its document (session, kind, name) and line, with its meta; the index has a row for each.
    lines: (db.prepare("SELECT d.session_id, d.kind, d.name, m.rowid & 4294967295 AS line, m.start, m.len, m.role, m.error, m.time, m.tools, m.files, m.calls FROM line_meta m JOIN search_docs d ON d.id = m.rowid >> 32").all() as Record<string, unknown>[])
      .map(({ session_id, ...r }) => `${ref(session_id)}:${JSON.stringify(r)}`)
      .sort(),
    indexed: db.prepare("SELECT count(*) FROM lines_fts").pluck().get(),
  };
}

/** The catalog in step as the server keeps it: the rows refresh (given the usage the sync counted), then the full-text fill. */
async function upToDate(ctx: CoreContext, counted?: CountedUsages) {
  const rows = await refreshCatalog(ctx, { counted });
  return { ...rows, ...(await fillFullText(ctx)) };
}

/**
 * A workspace synced from a copy of the corpus (Claude Code and Codex), its catalog built by the
 * sync's refresh and fill as `casefile prepare` builds it: the rows take the usage the sync counted.
 */
async function corpusSetup() {
  const sources = await makeTempDir("casefile-catalog-src-");
  await fs.cp(CLAUDE, path.join(sources, "claude"), { recursive: true });
  await fs.cp(CODEX, path.join(sources, "codex"), { recursive: true });
  const root = await makeTempDir("casefile-catalog-ws-");
  const ctx = createCoreContext(root, { now: () => new Date("2026-11-28T00:00:00Z"), oneShot: true });
  const counted = new CountedUsages();
  await syncWorkspace(ctx, { sources: { claude: [path.join(sources, "claude")], codex: [path.join(sources, "codex")], demo: false }, counted });
  const countedSessions = counted.size;
  const first = await upToDate(ctx, counted);
  // Every Claude Code session's usage was counted by the sync, and every one was taken by the rows.
  expect(countedSessions).toBeGreaterThan(10);
  expect(counted.size).toBe(0);
  return { sources, root, ctx, first };
}

async function allSessionLists(ctx: CoreContext, via: "catalog" | "files") {
  const out: unknown[] = [];
  for (const p of (await loadWorkspace(ctx)).projects) {
    const input = { project_key: p.projectKey, limit: 500, sort: "session_ref", order: "asc" };
    out.push(via === "catalog" ? await catalogListSessions(ctx, input) : await listSessions(ctx, input));
  }
  return out;
}

describe.skipIf(!HAS_SHARED)("the catalog (issue 25)", () => {
  if (!HAS_SHARED) it.skip(SKIP_SHARED_MESSAGE, () => {});

  it("a CLI prepare's refresh, the dashboard's list read and two full-text fills build one catalog at once: all finish, and it equals a rebuild", async () => {
    const { ctx } = await corpusSetup();
    const rebuilt = dump(ctx);
    closeCatalog(ctx);
    for (let round = 0; round < 3; round += 1) {
      await fs.rm(catalogPath(ctx.workspaceRoot), { force: true });
      // Through tsx, not bundled: better-sqlite3 finds its native addon from its own folder.
      const runs = ["refresh", "lists", "fill", "fill"].map((mode) => startWorker("--import=tsx", ["lib/catalog/__fixtures__/catalog-worker.ts", mode, ctx.workspaceRoot]));
      for (const r of runs) await untilOutput(r, "ready");
      for (const r of runs) r.child.stdin!.end("go\n");
      const codes = await Promise.all(runs.map((r) => r.exit));
      expect(runs.map((r) => r.stderr())).toEqual(["", "", "", ""]);
      expect(codes).toEqual([0, 0, 0, 0]);
      expect(dump(ctx)).toEqual(rebuilt);
      closeCatalog(ctx);
    }
  }, 300_000);

  it("keeps in step incrementally: a grown and a new session update their rows only, and the result equals a rebuild from the files", async () => {
    const { sources, ctx, first } = await corpusSetup();
    expect(first.sessions_updated).toBeGreaterThan(10);
    expect(first.lines_indexed).toBeGreaterThan(1000);
    expect(await upToDate(ctx)).toMatchObject({ sessions_updated: 0, sessions_indexed: 0, lines_indexed: 0 });

    // Grow one Codex session by its own lines, and add a new Claude Code session.
    const codexFile = path.join(sources, "codex", "kvsankar__agent-history");
    const grownFile = (await fs.readdir(codexFile, { recursive: true })).map((f) => path.join(codexFile, String(f))).find((f) => f.endsWith(".jsonl"))!;
    const grownLines = (await fs.readFile(grownFile, "utf8")).split("\n").filter((l) => l !== "").slice(0, 3);
    await fs.appendFile(grownFile, `${grownLines.join("\n")}\n`);
    const spotter = path.join(sources, "claude", "misc", "marot__spotter", "test", "fixtures", "transcripts");
    const text = await fs.readFile(path.join(spotter, "short.jsonl"), "utf8");
    const newId = "0c0ffee0-0000-4000-8000-000000000025";
    await fs.writeFile(path.join(spotter, `${newId}.jsonl`), text.replaceAll(/"sessionId":"[^"]+"/g, `"sessionId":"${newId}"`));
    await syncWorkspace(ctx);
    const step = await upToDate(ctx);
    expect(step.sessions_updated).toBe(2);
    expect(step.sessions_indexed).toBe(2);
    expect(step.lines_indexed).toBe(3 + text.split("\n").filter((l) => l !== "").length);

    const incremental = dump(ctx);
    const listsBefore = await allSessionLists(ctx, "catalog");
    const projectsBefore = await catalogProjects(ctx);
    closeCatalog(ctx);
    await fs.rm(catalogPath(ctx.workspaceRoot));
    await upToDate(ctx);
    const rebuilt = dump(ctx);
    expect(rebuilt.lines.length).toBe(incremental.lines.length);
    expect(rebuilt).toEqual(incremental);
    // Deleting it loses nothing: the lists are the same, and the same as computed from the files.
    expect(await catalogProjects(ctx)).toEqual(projectsBefore);
    // The files oracle lists in directory order without activity; the catalog adds activity and tokens and sorts by it.
    const byKey = (a: { project_key: string }, b: { project_key: string }) => a.project_key.localeCompare(b.project_key);
    expect(projectsBefore.map(({ last_activity_at: _at, total_tokens: _tokens, ...p }) => p).sort(byKey)).toEqual((await listProjects(ctx)).sort(byKey));
    // Most recently active first: each project's last activity is its sessions' latest record (list_sessions' ended_at, else started_at), and tokens their sum.
    const lists = (await allSessionLists(ctx, "files")) as { project_key: string; sessions: { started_at: string | null; ended_at: string | null; total_tokens: number | null }[] }[];
    for (const p of projectsBefore) {
      const sessions = lists.find((l) => l.project_key === p.project_key)!.sessions;
      const times = sessions.map((s) => s.ended_at ?? s.started_at).filter((t): t is string => t !== null).sort();
      expect(p.last_activity_at, p.project_key).toBe(times.at(-1) ?? null);
      const tokens = sessions.map((s) => s.total_tokens).filter((t): t is number => t !== null);
      expect(p.total_tokens, p.project_key).toBe(tokens.length === 0 ? null : tokens.reduce((a, b) => a + b, 0));
    }
    const activity = projectsBefore.map((p) => p.last_activity_at).filter((t) => t !== null);
    expect(activity.length).toBeGreaterThan(2);
    expect(activity).toEqual([...activity].sort().reverse());
    expect(await allSessionLists(ctx, "catalog")).toEqual(listsBefore);
    expect(listsBefore).toEqual(await allSessionLists(ctx, "files"));
  }, 120_000);

  it("resumes a session cut after any committed batch without duplicates or lost lines (progress is stored with each batch)", async () => {
    const { ctx } = await corpusSetup();
    const db = catalogDb(ctx);
    // The longest transcript, cut back to a line in its middle as a commit between two batches would leave it.
    const s = db.prepare("SELECT s.id, d.id AS doc, s.project_key, s.session_ref, s.session_path, d.indexed_lines FROM sessions s JOIN search_docs d ON d.session_id = s.id AND d.kind = 0 ORDER BY d.indexed_lines DESC LIMIT 1").get() as { id: number; doc: number; project_key: string; session_ref: string; session_path: string; indexed_lines: number };
    const project = (await loadWorkspace(ctx)).projects.find((p) => p.projectKey === s.project_key)!;
    const file = path.join(project.dir, s.session_path);
    const lines = (await fs.readFile(file, "utf8")).split("\n");
    const cut = Math.floor(s.indexed_lines / 2);
    const bytes = Buffer.byteLength(lines.slice(0, cut).join("\n") + "\n");
    expect(bytes).toBeGreaterThan(4096);
    const after = [(BigInt(s.doc) << 32n) | BigInt(cut), (BigInt(s.doc) << 32n) | 0xffffffffn];
    db.prepare("DELETE FROM lines_fts WHERE rowid > ? AND rowid <= ?").run(...after);
    db.prepare("DELETE FROM line_meta WHERE rowid > ? AND rowid <= ?").run(...after);
    db.prepare("UPDATE search_docs SET indexed_bytes = ?, indexed_lines = ?, stamp = NULL WHERE id = ?").run(bytes, cut, s.doc);
    db.prepare("UPDATE sessions SET fts_stamp = NULL WHERE id = ?").run(s.id);
    const expectedLines = dump(ctx).lines.length;
    await upToDate(ctx);
    const resumed = dump(ctx);
    expect(resumed.lines.length).toBeGreaterThan(expectedLines);
    closeCatalog(ctx);
    await fs.rm(catalogPath(ctx.workspaceRoot));
    await upToDate(ctx);
    expect(dump(ctx).lines).toEqual(resumed.lines);
  }, 120_000);

  it("a session whose file cannot be read is left for its next version: the refresh and the fill go on with the others, say which, and search covers the rest", async () => {
    const { ctx } = await corpusSetup();
    const warnings: string[] = [];
    const logged = createCoreContext(ctx.workspaceRoot, { now: ctx.now, oneShot: true, log: { ...ctx.log, warn: (message: string) => void warnings.push(message) } });
    const search = async (n: number) => searchSessions(logged, searchSessionsInputSchema.parse({ query: `zebra-quartz-${n}` }));
    // Two Claude Code sessions grow by a line naming a marker; one of them cannot be read.
    const claude = (await loadWorkspace(logged)).projects.flatMap((p) => p.rows.filter((r) => r.source === "claude-code").map((r) => path.join(p.dir, r.session_path))).slice(0, 2);
    const marker = (n: number) => JSON.stringify({ type: "user", timestamp: "2026-11-29T06:00:00.000Z", message: { role: "user", content: `zebra-quartz-${n} marker` } });
    for (const [n, file] of claude.entries()) await fs.appendFile(file, `${marker(n)}\n`);
    const [, blocked] = claude as [string, string];
    const realStat = fs.stat;
    const deny = () => vi.spyOn(fs, "stat").mockImplementation(((file: string, ...rest: []) => (String(file) === blocked ? Promise.reject(Object.assign(new Error(`EACCES: permission denied, stat '${blocked}'`), { code: "EACCES" })) : realStat(file, ...rest))) as typeof fs.stat);

    // Readable for the rows, not for the full-text fill.
    expect(await refreshCatalog(logged)).toMatchObject({ sessions_updated: 2 });
    let denied = deny();
    try {
      expect(await fillFullText(logged)).toEqual({ sessions_indexed: 1, lines_indexed: 1 });
    } finally {
      denied.mockRestore();
    }
    expect(warnings.filter((w) => w.includes("full-text index") && w.includes(blocked))).toHaveLength(1);
    expect(await search(0)).toMatchObject({ status: "ok", total: 1 });
    expect((await search(1)).total).toBe(0);
    // Its next version is indexed: the line it could not read, and the new one.
    await fs.appendFile(blocked, `${marker(2)}\n`);
    expect(await upToDate(logged)).toMatchObject({ sessions_updated: 1, sessions_indexed: 1, lines_indexed: 2 });
    for (const n of [1, 2]) expect((await search(n)).total, `marker ${n}`).toBe(1);

    // Not readable for the rows either: the refresh goes on, and the session waits for its next version as a missing one.
    await fs.appendFile(blocked, `${marker(3)}\n`);
    denied = deny();
    try {
      expect(await refreshCatalog(logged)).toMatchObject({ sessions_updated: 1 });
    } finally {
      denied.mockRestore();
    }
    expect(warnings.filter((w) => w.includes("catalog: cannot read") && w.includes(blocked))).toHaveLength(1);
    expect(await search(1)).toMatchObject({ status: "ok", total: 0 });
    expect(await upToDate(logged)).toMatchObject({ sessions_updated: 1, sessions_indexed: 1 });
    for (const n of [1, 2, 3]) expect((await search(n)).total, `marker ${n}`).toBe(1);
  }, 120_000);

  it("searches with precision and recall against a scan of the same text (transcripts, subagents, tool results), with the filters", async () => {
    const { ctx } = await corpusSetup();
    const ws = await loadWorkspace(ctx);
    // The scan: every line of every file of every session, its visible text as the catalog reads it, and its tools.
    type Scanned = { key: string; source: string; text: string; tools: string[]; error: boolean; role: string };
    const scanned: Scanned[] = [];
    for (const project of ws.projects) {
      for (const row of project.rows) {
        for (const file of await sessionFilesAt(project.dir, path.join(project.dir, row.session_path))) {
          const calls = new Map<string, string>();
          (await fs.readFile(file.path, "utf8")).split(/\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/).forEach((line, i) => {
            if (line.trim() === "") return;
            const facts = file.kind === "tool_result" ? { text: line, calls: [], answers: [], error: false, role: "tool" } : lineFacts(line);
            for (const c of facts.calls) calls.set(c.id, c.name);
            const tools = [...facts.calls.map((c) => c.name), ...facts.answers.flatMap((id) => (calls.has(id) ? [calls.get(id)!] : []))];
            scanned.push({ key: `${project.projectKey}/${row.session_ref}/${file.kind}/${file.id ?? ""}:${i + 1}`, source: row.source, text: facts.text.toLowerCase(), tools, error: facts.error, role: facts.role });
          });
        }
      }
    }
    const keyOf = (h: SearchHit) => `${h.project_key}/${h.session_ref}/${h.file.kind}/${h.file.id ?? ""}:${h.line_number}`;
    const all = async (input: Record<string, unknown>) => {
      const first = await searchSessions(ctx, searchSessionsInputSchema.parse({ ...input, limit: 200 }));
      const hits = [...first.hits];
      for (let offset = 200; offset < first.total; offset += 200) hits.push(...(await searchSessions(ctx, searchSessionsInputSchema.parse({ ...input, limit: 200, offset }))).hits);
      expect(hits).toHaveLength(first.total);
      return { result: first, keys: hits.map(keyOf).sort(), hits };
    };
    for (const [query, needle] of [["phantom", "phantom"], ["README.md", "readme.md"], ['"npm test"', "npm test"], ["Read", "read"], ["apply_patch", "apply_patch"], ['"session logs"', "session logs"]] as const) {
      const expected = scanned.filter((s) => s.text.includes(needle)).map((s) => s.key).sort();
      const { result, keys, hits } = await all({ query });
      expect(result.total, query).toBe(expected.length);
      expect(keys, query).toEqual(expected);
      for (const h of hits) expect(h.snippet.replaceAll("[[", "").replaceAll("]]", "").toLowerCase(), query).toContain(needle);
      expect(expected.length, query).toBeGreaterThan(0);
    }
    // Subagent transcripts and persisted tool results are searched, reported under their session.
    expect(scanned.some((s) => s.key.includes("/subagent/") && s.text.includes("the"))).toBe(true);
    const the = await all({ query: "the" });
    expect(the.keys).toEqual(scanned.filter((s) => s.text.includes("the")).map((s) => s.key).sort());
    expect(the.hits.some((h) => h.file.kind === "subagent" && h.file.id !== null)).toBe(true);
    // Ranked within a session, and a session's hits follow each other.
    const ranked = await searchSessions(ctx, searchSessionsInputSchema.parse({ query: "the", limit: 200 }));
    const runs = ranked.hits.map((h) => `${h.project_key}/${h.session_ref}`).filter((k, i, list) => i === 0 || list[i - 1] !== k);
    expect(new Set(runs).size).toBe(runs.length);
    expect(ranked.sessions).toBe(new Set(the.hits.map((h) => `${h.project_key}/${h.session_ref}`)).size);
    // Filters, each the lines a scan finds: agent, tool (calls and answers), is:error, role, exclusion, OR.
    const expect_ = async (query: string, keep: (s: Scanned) => boolean) => {
      const expected = scanned.filter(keep).map((s) => s.key).sort();
      expect((await all({ query })).keys, query).toEqual(expected);
      expect(expected.length, query).toBeGreaterThan(0);
    };
    await expect_("the agent:codex", (s) => s.source === "codex" && s.text.includes("the"));
    await expect_("the tool:Bash", (s) => s.tools.includes("Bash") && s.text.includes("the"));
    await expect_("is:error", (s) => s.error);
    await expect_("the role:user", (s) => s.role === "user" && s.text.includes("the"));
    await expect_("README -md", (s) => s.text.includes("readme") && !s.text.includes("md"));
    await expect_("phantom OR apply_patch", (s) => s.text.includes("phantom") || s.text.includes("apply_patch"));
    const file = await searchSessions(ctx, searchSessionsInputSchema.parse({ query: "the", file: "no/such/file.ts" }));
    expect(file.total).toBe(0);
    // A hit names its turn when the line lies inside one.
    const inTurn = (await searchSessions(ctx, searchSessionsInputSchema.parse({ query: "phantom", limit: 200 }))).hits.find((h) => h.turn_ref !== null);
    expect(inTurn?.turn_ref).toMatch(/^T\d{4,}$/);
  }, 120_000);

  it("in a long-running process, a search answers from what is indexed and says so, while a worker fills the rest", async () => {
    const { ctx } = await corpusSetup();
    const complete = await searchSessions(ctx, searchSessionsInputSchema.parse({ query: "README.md", limit: 200 }));
    expect(complete).toMatchObject({ status: "ok" });
    expect(complete.coverage.sessions_indexed).toBe(complete.coverage.sessions_total);
    // The dashboard after a prepare: rows only, no line indexed yet.
    closeCatalog(ctx);
    await fs.rm(catalogPath(ctx.workspaceRoot));
    const server = createCoreContext(ctx.workspaceRoot, { now: ctx.now });
    await refreshCatalog(server);
    const early = await searchSessions(server, searchSessionsInputSchema.parse({ query: "README.md", limit: 200 }));
    expect(early.status).toBe("indexing");
    expect(early.coverage).toEqual({ sessions_indexed: 0, sessions_total: complete.coverage.sessions_total, lines_unchecked: 0 });
    expect(early.total).toBe(0);
    // The search asked for the fill; it runs on a worker thread with its own connection.
    const filled = await requestFullTextFill(server.workspaceRoot);
    expect(filled.lines_indexed).toBeGreaterThan(1000);
    const late = await searchSessions(server, searchSessionsInputSchema.parse({ query: "README.md", limit: 200 }));
    expect(late).toEqual(complete);
    // Scoped coverage: one project's sessions only.
    const key = late.hits[0]!.project_key;
    const scoped = await searchSessions(server, searchSessionsInputSchema.parse({ query: "README.md", project_key: key }));
    expect(scoped.coverage.sessions_total).toBe((await loadWorkspace(server)).projects.find((p) => p.projectKey === key)!.rows.length);
  }, 120_000);

  it("numbers hits by physical lines as the viewer does: a raw U+2028 inside a string ends a line (contract §1.6), and a half-written last line waits", async () => {
    const { sources, ctx } = await corpusSetup();
    const file = path.join(sources, "claude", "misc", "marot__spotter", "test", "fixtures", "transcripts", "258c7280-ae70-4798-800f-63464d01a85d.jsonl");
    const physical = (text: string) => text.split(/\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/).length - (/(\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029])$/.test(text) ? 1 : 0);
    const before = physical(await fs.readFile(file, "utf8"));
    const record = (message: string, n: number) => JSON.stringify({ type: "system", subtype: "api_error", level: "error", sessionId: "258c7280-ae70-4798-800f-63464d01a85d", error: { status: 529, error: { type: "error", error: { type: "overloaded_error", message } } }, timestamp: "2026-02-11T22:00:00.000Z", uuid: `b0000000-0000-4000-8000-00000000000${n}` });
    // JSON.stringify leaves U+2028 raw: this record is two physical lines.
    await fs.appendFile(file, `${record("first\u2028second", 1)}\n${record("zebrafinch", 2)}\n${record("quokka", 3)}`);
    await syncWorkspace(ctx);
    await refreshCatalog(ctx);
    const hit = await searchSessions(ctx, searchSessionsInputSchema.parse({ query: "zebrafinch" }));
    expect(hit.hits.map((h) => h.line_number)).toEqual([before + 3]);
    expect((await searchSessions(ctx, searchSessionsInputSchema.parse({ query: "quokka" }))).total).toBe(0);
    // The line is finished: it is indexed at its number, once.
    await fs.appendFile(file, "\n");
    await syncWorkspace(ctx);
    await refreshCatalog(ctx);
    expect((await searchSessions(ctx, searchSessionsInputSchema.parse({ query: "quokka" }))).hits.map((h) => h.line_number)).toEqual([before + 4]);
    expect((await searchSessions(ctx, searchSessionsInputSchema.parse({ query: "zebrafinch" }))).total).toBe(1);
  }, 120_000);

  it("finds API errors, summaries and hook commands of a corpus session, at their lines", async () => {
    const { sources, ctx } = await corpusSetup();
    // The corpus has no api_error record (contract §2.6 [3p]): append six, shaped as Claude Code writes them, to a real 2.1.39 session.
    const file = path.join(sources, "claude", "misc", "marot__spotter", "test", "fixtures", "transcripts", "258c7280-ae70-4798-800f-63464d01a85d.jsonl");
    const before = (await fs.readFile(file, "utf8")).split("\n").filter((l) => l !== "").length;
    const apiError = (attempt: number) => JSON.stringify({ parentUuid: null, isSidechain: false, userType: "external", cwd: "/home/USER/projects/spotter", sessionId: "258c7280-ae70-4798-800f-63464d01a85d", version: "2.1.39", type: "system", subtype: "api_error", level: "error", error: { status: 529, headers: {}, requestID: `req_${attempt}`, error: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } } }, retryInMs: 500 * attempt, retryAttempt: attempt, maxRetries: 10, timestamp: "2026-02-11T22:00:00.000Z", uuid: `a0000000-0000-4000-8000-00000000000${attempt}` });
    await fs.appendFile(file, `${[1, 2, 3, 4, 5, 6].map(apiError).join("\n")}\n`);
    await syncWorkspace(ctx);
    await refreshCatalog(ctx);
    const overloaded = await searchSessions(ctx, searchSessionsInputSchema.parse({ query: "overloaded", limit: 50 }));
    expect(overloaded.total).toBe(6);
    expect(overloaded.hits.map((h) => h.line_number).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6].map((i) => before + i));
    expect(overloaded.hits[0]!.snippet).toMatch(/API error 529.*\[\[overloaded\]\]_error/i);
    expect((await searchSessions(ctx, searchSessionsInputSchema.parse({ query: '"API error 529"' }))).total).toBe(6);
    // A summary record's title and a stop hook's command are found where they are written.
    const ws = await loadWorkspace(ctx);
    const lineOf = async (hit: { project_key: string; session_ref: string; line_number: number }) => {
      const project = ws.projects.find((p) => p.projectKey === hit.project_key)!;
      const row = project.rows.find((r) => r.session_ref === hit.session_ref)!;
      return (await fs.readFile(path.join(project.dir, row.session_path), "utf8")).split("\n")[hit.line_number - 1]!;
    };
    const summary = await searchSessions(ctx, searchSessionsInputSchema.parse({ query: '"Session File Analysis Missing User Message"', limit: 50 }));
    expect(summary.total).toBeGreaterThan(0);
    for (const h of summary.hits) expect(JSON.parse(await lineOf(h))).toMatchObject({ type: "summary" });
    const hook = await searchSessions(ctx, searchSessionsInputSchema.parse({ query: "tmux-waiting.sh", limit: 200 }));
    const hookTypes = new Set<string>();
    for (const h of hook.hits) hookTypes.add(String((JSON.parse(await lineOf(h)) as { subtype?: string }).subtype));
    expect(hookTypes.has("stop_hook_summary")).toBe(true);
  }, 120_000);

  it("answers the lists from the catalog as it is while the sync's refresh runs, and is in step once it is done", async () => {
    const { sources, ctx } = await corpusSetup();
    const spotter = path.join(sources, "claude", "misc", "marot__spotter", "test", "fixtures", "transcripts");
    const newId = "0c0ffee0-0000-4000-8000-000000000026";
    await fs.writeFile(path.join(spotter, `${newId}.jsonl`), (await fs.readFile(path.join(spotter, "short.jsonl"), "utf8")).replaceAll(/"sessionId":"[^"]+"/g, `"sessionId":"${newId}"`));
    await syncWorkspace(ctx);
    const count = (projects: { session_count: number }[]) => projects.reduce((n, p) => n + p.session_count, 0);
    const before = count((catalogDb(ctx).prepare("SELECT session_count FROM projects").all() as { session_count: number }[]));
    let done = false;
    const refresh = refreshCatalog(ctx).then(() => (done = true));
    const during = await catalogProjects(ctx);
    expect(done).toBe(false);
    expect(count(during)).toBe(before);
    await refresh;
    expect(count(await catalogProjects(ctx))).toBe(before + 1);
  }, 120_000);

  it("the server's refresh fills seed 003 risk in the background, so a session list has nothing pending", async () => {
    const { ctx } = await corpusSetup();
    const db = catalogDb(ctx);
    const stale = () => (db.prepare("SELECT count(*) AS n FROM sessions WHERE missing = 0 AND (risk_stamp IS NULL OR risk_stamp != file_stamp)").get() as { n: number }).n;
    expect(stale()).toBeGreaterThan(0);
    await refreshCatalog(ctx, { risk: true });
    expect(stale()).toBe(0);
    const lists = (await allSessionLists(ctx, "catalog")) as { risk_pending: string[]; sessions: { risk_level: string | null }[] }[];
    expect(lists.every((l) => l.risk_pending.length === 0)).toBe(true);
    expect(lists.flatMap((l) => l.sessions).every((r) => r.risk_level !== null)).toBe(true);
    // The same risk the list computes itself.
    expect(lists).toEqual(await allSessionLists(ctx, "files"));
  }, 120_000);

  it("get_usage from the catalog equals reading every transcript, for every grouping and filter, and follows a price override", async () => {
    const { ctx } = await corpusSetup();
    const inputs: GetUsageInput[] = [
      { group_by: "day" },
      { group_by: "model" },
      { group_by: "session" },
      { group_by: "project", source: "codex" },
      { group_by: "week", since: "2026-01-01", timezone: "Europe/Vilnius" },
      { group_by: "month", until: "2025-12-31" },
      { group_by: "day", since: "2026-02-11", until: "2026-02-12" },
    ];
    for (const input of inputs) {
      const fromCatalog = await catalogUsage(ctx, input);
      expect(fromCatalog, JSON.stringify(input)).toEqual(await getUsage(ctx, input));
      expect(fromCatalog.status).toBe("ok");
    }
    expect(((await catalogUsage(ctx, { group_by: "model" })) as { totals: { total_tokens: number } }).totals.total_tokens).toBeGreaterThan(0);
    expect(await catalogUsage(ctx, { group_by: "day", project_key: "nope" })).toMatchObject({ status: "invalid", errors: [{ field: "project_key" }] });
    // A price override reprices the stored rows: still the transcripts' answer.
    const first = (await catalogUsage(ctx, { group_by: "model" })) as { rows: { key: string }[] };
    const model = first.rows[0]!.key;
    await fs.mkdir(path.dirname(pricingOverrideFile(ctx.workspaceRoot)), { recursive: true });
    await fs.writeFile(pricingOverrideFile(ctx.workspaceRoot), JSON.stringify({ models: { [model]: { input_per_mtok: 1000, output_per_mtok: 1000 } } }));
    const repriced = await catalogUsage(ctx, { group_by: "model" });
    expect(repriced).toEqual(await getUsage(ctx, { group_by: "model" }));
    expect(repriced).not.toEqual(first);
  }, 120_000);

  it("refuses a query too short for the trigram index with a clear error", () => {
    for (const query of ["ab", "a b c", "-foo"]) {
      const parsed = searchSessionsInputSchema.safeParse({ query });
      expect(parsed.success, query).toBe(false);
      expect(parsed.error?.issues[0]?.message, query).toMatch(/at character \d+: /);
    }
    // A short word beside a longer one, or beside a filter, is searched.
    expect(searchSessionsInputSchema.safeParse({ query: "go build" }).success).toBe(true);
    expect(searchSessionsInputSchema.safeParse({ query: "go tool:Bash" }).success).toBe(true);
  });
});
