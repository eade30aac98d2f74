/**
 * The catalog store suite on PostgreSQL (issue 39): the same cases as on SQLite, on a fresh
 * database of the test server (CASEFILE_TEST_DATABASE_URL; skipped with a message without one).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

import { afterAll, beforeAll, expect, it } from "vitest";

import { lineFacts } from "@/lib/catalog/extract";
import { extractFileLines, wholeFileRange } from "@/lib/catalog/extract-lines";
import { HEAD_BYTES } from "@/lib/catalog/index-lines";
import { openPostgres } from "@/lib/catalog/postgres/database";
import { COUNT_AHEAD, PostgresCatalogStore } from "@/lib/catalog/postgres/store";
import { memoryCatalogStore } from "@/lib/catalog/sqlite-store";
import type { CandidateLine, CandidateQuery, CatalogStore } from "@/lib/catalog/store";
import { storeSearchSuite } from "@/lib/catalog/store-search-suite";
import { storeSuite } from "@/lib/catalog/store-suite";
import { termTokens, WordPacker } from "@/lib/catalog/trigram-tokens";
import { physicalLines } from "@/lib/jsonl/text-lines";
import { describePostgres, freshTestDatabase } from "@/lib/testing/postgres";
import { seededRandom } from "@/lib/testing/random";
import { HAS_SHARED, SHARED_DIR } from "@/lib/testing/shared";
import { SESSION_SORT_KEYS } from "@/lib/workspace/schema";

describePostgres("PostgreSQL catalog store", () => {
  const databases: { drop(): Promise<void> }[] = [];
  /** A store on a new, empty database (dropped after the file's cases). */
  const open = async () => {
    const db = await freshTestDatabase("cf_store_pg");
    databases.push(db);
    return new PostgresCatalogStore(db.url);
  };
  afterAll(async () => {
    for (const db of databases) await db.drop();
  });

  storeSuite(open);
  storeSearchSuite(open);
});

/** Corpus transcripts (JSONL) and persisted tool results (text) under ../shared/corpus, in path order. */
function corpusFiles(): { file: string; format: "jsonl" | "text"; source: string }[] {
  const out: { file: string; format: "jsonl" | "text"; source: string }[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".jsonl")) out.push({ file: p, format: "jsonl", source: p.includes("/codex/") ? "codex" : "claude-code" });
      else if (e.name.endsWith(".txt") && p.includes("tool-results")) out.push({ file: p, format: "text", source: "claude-code" });
    }
  };
  walk(path.join(SHARED_DIR, "corpus"));
  return out;
}

describePostgres("PostgreSQL and SQLite catalog stores on the corpus", () => {
  let pgDb: Awaited<ReturnType<typeof freshTestDatabase>>;
  const stores: { sqlite: CatalogStore; pg: CatalogStore } = {} as never;
  /** Every indexed line's visible text, for the query terms. */
  const texts: string[] = [];
  const tools = new Set<string>();
  const files = new Set<string>();
  const times: number[] = [];

  beforeAll(async () => {
    if (!HAS_SHARED) return;
    stores.sqlite = memoryCatalogStore();
    pgDb = await freshTestDatabase("cf_store_equal");
    stores.pg = new PostgresCatalogStore(pgDb.url);
    const random = seededRandom(39);
    const corpus = corpusFiles();
    const facts = corpus.map((c, i) => ({
      ord: i,
      file_stamp: `${i}:1`,
      started_at: random() < 0.1 ? null : new Date(Date.UTC(2026, 0, 1 + Math.floor(random() * 60), Math.floor(random() * 24))).toISOString(),
      ended_at: random() < 0.3 ? null : new Date(Date.UTC(2026, 2, 1 + Math.floor(random() * 30))).toISOString(),
      duration_seconds: random() < 0.2 ? null : Math.round(random() * 1e5) / 10,
      turn_count: Math.floor(random() * 5),
      first_user_message: random() < 0.2 ? null : ["Über alles", "über", "ÉTÉ", "été", "İstanbul", "straße", "STRASSE", "ſ long s", "plain ascii", "Σίσυφος"][Math.floor(random() * 10)]! + ` ${i}`,
      subagent_count: Math.floor(random() * 3),
      size_bytes: Math.floor(random() * 1e6),
      status: random() < 0.5 ? "completed" : null,
      status_recent: 0,
      last_response_preview: null,
      output_tokens: random() < 0.3 ? null : Math.floor(random() * 1e4),
      total_tokens: random() < 0.3 ? null : Math.floor(random() * 3e9),
      cost_usd: random() < 0.3 ? null : random() * 10,
      usage_buckets: "[]",
      usage_last_ms: random() < 0.3 ? null : Math.floor(random() * 1e12),
      usage_stamp: "p",
    }));
    const risks = corpus.map(() => (random() < 0.3 ? null : (["low", "medium", "high"] as const)[Math.floor(random() * 3)]!));
    const extracted = await Promise.all(corpus.map(async (c) => extractFileLines(c.file, await wholeFileRange(c.file), HEAD_BYTES, c.format)));
    corpus.forEach((c) => {
      for (const raw of physicalLines(readFileSync(c.file, "utf8"))) {
        const t = c.format === "text" ? raw : lineFacts(raw).text;
        if (t.trim() !== "") texts.push(t);
      }
    });
    for (const ex of extracted) {
      ex.tools.forEach((t) => t.split("\n").forEach((x) => x && tools.add(x)));
      ex.files.forEach((t) => t.split("\n").forEach((x) => x && files.add(x)));
      ex.times.forEach((t) => Number.isNaN(t) || times.push(t));
    }
    // The same writes, in the same order, into both stores.
    for (const store of [stores.sqlite, stores.pg]) {
      await store.withIndexLock(() => store.write(async (tx) => {
        for (const [ord, key] of ["p-one", "p-two"].entries()) {
          await tx.upsertProject({ project_key: key, ord, project_label: key, index_stamp: "i", session_count: 0, turn_count: 0, cwd: null, git_branch: null, broken_rows: "[]" });
        }
        for (const [i, c] of corpus.entries()) {
          const project = i % 3 === 0 ? "p-two" : "p-one";
          const id = await tx.insertSession({ project_key: project, session_ref: `s${String(i).padStart(3, "0")}`, ord: i, source: c.source, source_session_id: path.basename(c.file), session_path: c.file, turn_count: 1, machine: ["laptop", "desktop", null][i % 3]! });
          await tx.updateSessionFacts(id, facts[i]!);
          if (risks[i] !== null) await tx.storeRisks([{ id, risk_stamp: `${i}:1`, risk_level: risks[i]!, reset_count: i % 4 }]);
          const docId = await tx.addSearchDoc(id, c.format === "text" ? 2 : 0, c.format === "text" ? path.basename(c.file, ".txt") : "", c.file);
          const ex = extracted[i]!;
          for (let from = 0; from < ex.lines.length; from += 500) {
            const to = Math.min(ex.lines.length, from + 500);
            await tx.addLines(docId, { extracted: ex, from, to, progress: { indexed_bytes: ex.ends[to - 1]!, indexed_lines: ex.lines[to - 1]!, head_sha: null } });
          }
        }
      }));
    }
  }, 120_000);
  afterAll(async () => {
    await pgDb?.drop();
  });

  it.skipIf(!HAS_SHARED)("give the same candidate lines, in the same order, and the same counts, for every kind of query", async () => {
    const random = seededRandom(3939);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    const term = () => {
      const t = pick(texts);
      const start = Math.floor(random() * Math.max(1, t.length - 3));
      return t.slice(start, start + 3 + Math.floor(random() * 12));
    };
    const base: CandidateQuery = { words: null, projects: [], sessions: [], agents: [], machines: [], roles: [], tools: [], files: [], errors: false, noErrors: false, after: null, before: null, since: null, until: null, transcript: null, order: "newest" };
    const filters: Partial<CandidateQuery>[] = [
      {},
      { agents: ["codex"] },
      { machines: ["laptop"] },
      { roles: [0, 2] },
      { errors: true },
      { noErrors: true },
      { tools: [pick([...tools]).toUpperCase()] },
      { files: [pick([...files]).slice(-6).toUpperCase()] },
      { after: new Date(pick(times)).toISOString().slice(0, 10) + "T00:00:00.000Z" },
      { before: new Date(pick(times)).toISOString().slice(0, 10) + "T00:00:00.000Z" },
      { since: "2026-03-10T00:00:00.000Z", until: "2026-02-01T00:00:00.000Z" },
      { projects: ["p-one"], sessions: ["s001", "s004"] },
      { projects: ["p-two"], sessions: ["s000"], transcript: "main" },
    ];
    let compared = 0;
    for (let k = 0; k < 120; k++) {
      const shape = k % 4;
      const words =
        shape === 0 ? [[termTokens(term())]] : shape === 1 ? [[termTokens(term())], [termTokens(term())]] : shape === 2 ? [[termTokens(term()), termTokens(term())]] : null;
      if (words?.some((clause) => clause.some((w) => w.length === 0))) continue;
      const q: CandidateQuery = { ...base, ...filters[k % filters.length]!, words, order: k % 5 === 0 ? "line" : "newest" };
      const [a, b] = [await scanAll(stores.sqlite, q), await scanAll(stores.pg, q)];
      expect(b, JSON.stringify(q)).toEqual(a);
      if (a.length > 2) {
        const mid = a[Math.floor(a.length / 2)]!;
        expect(await stores.pg.countCandidatesAfter(q, mid), JSON.stringify(q)).toBe(await stores.sqlite.countCandidatesAfter(q, mid));
      }
      compared += a.length;
    }
    // The queries found lines (not a comparison of empty results).
    expect(compared).toBeGreaterThan(1000);
  });

  it.skipIf(!HAS_SHARED)("give the same project list, session pages (every sort, filter and q), usage rows, coverage and big sessions", async () => {
    expect(await stores.pg.listProjects()).toEqual(await stores.sqlite.listProjects());
    for (const sort of SESSION_SORT_KEYS) {
      for (const order of ["asc", "desc"] as const) {
        for (const filter of [{}, { q: "über" }, { q: "ÉTÉ" }, { q: "STRASSE" }, { q: "i̇stanbul" }, { risk: "high" }, { source: "codex", machine: "laptop" }]) {
          const query = { project_key: "p-one", sort, order, limit: 7, offset: 3, ...filter };
          expect(await stores.pg.listSessions(query), JSON.stringify(query)).toEqual(await stores.sqlite.listSessions(query));
        }
      }
    }
    for (const q of [{ sources: ["claude-code", "codex"] }, { sources: ["codex"], machine: "desktop" }, { sources: ["claude-code"], project_key: "p-two", sinceMs: 5e11 }, { sources: ["claude-code", "codex"], timedOnly: true }]) {
      expect(await stores.pg.usageRows(q)).toEqual(await stores.sqlite.usageRows(q));
    }
    expect(await stores.pg.fullTextCoverage({ machine: "laptop" })).toEqual(await stores.sqlite.fullTextCoverage({ machine: "laptop" }));
    expect(await stores.pg.bigSessions(1000, ["claude-code"])).toEqual(await stores.sqlite.bigSessions(1000, ["claude-code"]));
    expect(await stores.pg.staleRisks("p-one")).toEqual(await stores.sqlite.staleRisks("p-one"));
    expect(await stores.pg.indexStamp()).toEqual(await stores.sqlite.indexStamp());
  });
});

describePostgres("PostgreSQL catalog store across line partitions", () => {
  let pgDb: Awaited<ReturnType<typeof freshTestDatabase>>;
  afterAll(async () => {
    await pgDb?.drop();
  });

  it.skipIf(!HAS_SHARED)("scans and counts documents spread over several partitions as SQLite does, stopping anywhere", async () => {
    const sqlite = memoryCatalogStore();
    pgDb = await freshTestDatabase("cf_store_parts");
    const pgStore = new PostgresCatalogStore(pgDb.url);
    const corpus = corpusFiles().filter((c) => c.format === "jsonl").slice(0, 6);
    // Document ids 256 apart and more: each in a partition of its own (256 documents a partition), one partition skipped.
    const ids = [3, 256, 700, 1300, 1301, 2000];
    for (const store of [sqlite, pgStore]) {
      await store.withIndexLock(() =>
        store.write(async (tx) => {
          await tx.upsertProject({ project_key: "p", ord: 0, project_label: "p", index_stamp: "i", session_count: 0, turn_count: 0, cwd: null, git_branch: null, broken_rows: "[]" });
          for (const [i, c] of corpus.entries()) {
            const sid = await tx.insertSession({ project_key: "p", session_ref: `s${i}`, ord: i, source: c.source, source_session_id: `x${i}`, session_path: c.file, turn_count: 0, machine: null });
            if (store === sqlite) sqlite.db.prepare("INSERT INTO search_docs (id, session_id, kind, name, rel_path) VALUES (?, ?, 0, '', ?)").run(ids[i], sid, c.file);
            else await (await openPostgres(pgDb.url)).query("INSERT INTO catalog_docs (id, session_id, kind, name, rel_path) VALUES ($1, $2, 0, '', $3)", [ids[i], sid, c.file]);
            const ex = await extractFileLines(c.file, await wholeFileRange(c.file), HEAD_BYTES, "jsonl");
            await tx.addLines(ids[i]!, { extracted: ex, from: 0, to: ex.lines.length, progress: { indexed_bytes: ex.consumed, indexed_lines: ex.lastLine, head_sha: null } });
          }
        }),
      );
    }
    const base: CandidateQuery = { words: null, projects: [], sessions: [], agents: [], machines: [], roles: [], tools: [], files: [], errors: false, noErrors: false, after: null, before: null, since: null, until: null, transcript: null, order: "newest" };
    let found = 0;
    // Partitions past the first counted ahead as soon as a scan has fetched anything (as a common word's does).
    COUNT_AHEAD.rows = 1;
    for (const term of ["the", "file", "test", "session"]) {
      for (const order of ["newest", "line"] as const) {
        for (const over of [{}, { projects: ["p"], sessions: ["s1", "s3"] }, { projects: ["p"], sessions: ["s4"], transcript: "main" }]) {
          const q: CandidateQuery = { ...base, ...over, words: [[termTokens(term)]], order };
          const all = await scanAll(sqlite, q);
          expect(await scanAll(pgStore, q)).toEqual(all);
          found += all.length;
          if (all.length === 0) continue;
          // Stopped at the first, a middle and the last candidate: the same lines seen, the same count left.
          for (const stop of [1, Math.ceil(all.length / 2), all.length]) {
            const seen: CandidateLine[] = [];
            await pgStore.scanCandidates(q, (c) => (seen.push(c), seen.length < stop));
            expect(seen).toEqual(all.slice(0, stop));
            expect(await pgStore.countCandidatesAfter(q, seen.at(-1)!)).toBe(await sqlite.countCandidatesAfter(q, seen.at(-1)!));
          }
        }
      }
    }
    COUNT_AHEAD.rows = 2048;
    expect(found).toBeGreaterThan(500);
    // The documents did land in five partitions.
    expect((await (await openPostgres(pgDb.url)).query("SELECT count(*)::int AS n FROM pg_inherits WHERE inhparent = 'catalog_lines'::regclass")).rows[0].n).toBe(5);
  });
});

async function scanAll(store: CatalogStore, q: CandidateQuery): Promise<CandidateLine[]> {
  const out: CandidateLine[] = [];
  await store.scanCandidates(q, (c) => (out.push(c), true));
  return out;
}

describePostgres("PostgreSQL catalog writers take turns", () => {
  let db: Awaited<ReturnType<typeof freshTestDatabase>>;
  afterAll(async () => {
    await db?.drop();
  });

  it("a session dropped while another connection's fill adds its lines leaves none of them behind", async () => {
    db = await freshTestDatabase("cf_store_turns");
    // Two stores on one database: the server's rows refresh and its fill worker, each with its own transaction.
    const [refresh, fill] = [new PostgresCatalogStore(db.url), new PostgresCatalogStore(db.url)];
    await refresh.upsertProject({ project_key: "p", ord: 0, project_label: "p", index_stamp: "i", session_count: 1, turn_count: 0, cwd: null, git_branch: null, broken_rows: "[]" });
    const sid = await refresh.insertSession({ project_key: "p", session_ref: "s", ord: 0, source: "claude-code", source_session_id: "x", session_path: "s.jsonl", turn_count: 0, machine: null });
    const docId = await fill.addSearchDoc(sid, 0, "", "s.jsonl");
    const pool = await openPostgres(db.url);
    // The line partition exists already (making one locks the whole table, which would hide the race).
    await pool.query("SELECT catalog_lines_partition(0)");
    const words = new WordPacker();
    for (let i = 0; i < 10; i++) words.add(`line ${i} of the session`);
    const ex = { size: 0, head: new Uint8Array(0), lines: Uint32Array.from({ length: 10 }, (_, i) => i + 1), starts: new Float64Array(10), lens: new Uint32Array(10).fill(1), ends: new Float64Array(10), roles: new Uint8Array(10), errors: new Uint8Array(10), times: new Float64Array(10).fill(Number.NaN), words: words.take(), tools: Array(10).fill(""), files: Array(10).fill(""), calls: Array(10).fill(""), consumed: 10, lastLine: 10 };
    let dropped: Promise<void> | null = null;
    await fill.write(async (tx) => {
      expect(await tx.addLines(docId, { extracted: ex, from: 0, to: 5, progress: { indexed_bytes: 5, indexed_lines: 5, head_sha: null } })).toBe(true);
      // The refresh drops the session now: it waits for the fill's transaction, then sees its lines.
      dropped = refresh.dropSession(sid);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await tx.addLines(docId, { extracted: ex, from: 5, to: 10, progress: { indexed_bytes: 10, indexed_lines: 10, head_sha: null } })).toBe(true);
    });
    await dropped;
    expect((await pool.query("SELECT count(*)::int AS n FROM catalog_lines")).rows[0].n).toBe(0);
    expect((await pool.query("SELECT count(*)::int AS n FROM catalog_docs")).rows[0].n).toBe(0);
    // The fill's next batch finds its document gone and writes nothing.
    expect(await fill.addLines(docId, { extracted: ex, from: 0, to: 10, progress: { indexed_bytes: 10, indexed_lines: 10, head_sha: null } })).toBe(false);
    expect((await pool.query("SELECT count(*)::int AS n FROM catalog_lines")).rows[0].n).toBe(0);
  });
});
