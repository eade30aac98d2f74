/**
 * The team server's catalog on PostgreSQL at scale (issue 39: "pages ≤ 300 ms and search p50 ≤
 * 500 ms on the server's 20,000 sessions"):
 * `npx tsx bench/team-store.bench.ts [--workspace DIR] [--database URL] [--keep]`.
 * Loads a prepared workspace's catalog into PostgreSQL as the server does (`CASEFILE_DATABASE_URL`:
 * the rows refresh, then the full-text fill with its extracting threads) and prints:
 * - the load's times, lines indexed and the catalog's size in the database against the files' bytes;
 * - the data calls of the pages, each timed cold (its first call) and warm (p50 of 5 more):
 *   `list_projects` (the home page's list), the home page's 30-day `get_usage`, and `list_sessions`
 *   (a project page: the largest project's first page by start, and one filtered by `q`);
 * - search p50 / p95 over distinct queries (each its first run: no result cached) for words,
 *   phrases, prefixes and filtered queries, each query of {@link SELECTIVE} (a filter keeping few of
 *   a common word's lines) with its time and total, and find-in-session on the largest session.
 * Defaults: the 2,000-session workspace /work/.bench-2k/workspace (the 20,000 one is
 * /work/.bench-many-sessions/workspace, made by `BENCH_KEEP=1 BENCH_PREPARE_ONLY=1 npx tsx
 * bench/many-sessions.bench.ts`), and a new database on `CASEFILE_TEST_DATABASE_URL`'s server
 * (dropped at the end unless `--keep`; `--database URL` uses that database as it is, loading only
 * what is not in step).
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";

import pg from "pg";

import { fillFullText } from "@/lib/catalog/full-text-index";
import { closePostgres, openPostgres } from "@/lib/catalog/postgres/database";
import { catalogListSessions, catalogProjects } from "@/lib/catalog/queries";
import { refreshCatalog } from "@/lib/catalog/refresh";
import { searchSessionsInputSchema } from "@/lib/catalog/schema";
import { searchSessions } from "@/lib/catalog/search";
import { catalogUsage } from "@/lib/catalog/usage";
import { createCoreContext } from "@/lib/context";

import { SEARCH_BENCH_QUERIES } from "./search-queries";
import { getUsageInputSchema } from "@/lib/usage/schema";

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
};

const QUERIES = SEARCH_BENCH_QUERIES;

/**
 * Filters keeping few of a common word's lines (a file: or tool: on ~1 % of the lines, the word on
 * ~12 %), each timed and its total printed: on PostgreSQL the word's candidates in every partition
 * were read before the filter dropped them (migration 3's trigram indexes serve the filter instead).
 */
const SELECTIVE = ["file:readme.md the", "file:viewer.toml error", "file:annotation.ex function", "tool:Glob the", "tool:mcp__rubymine__build_project the", "tool:Write config"];

const ms = (n: number) => `${n.toFixed(0)} ms`;
const pct = (list: number[], p: number) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor((p / 100) * list.length))]!;

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const out = await fn();
  return [out, performance.now() - start];
}

/** A new database on the test server, and how to drop it. */
async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = process.env.CASEFILE_TEST_DATABASE_URL?.trim() || "postgres://casefile@127.0.0.1:55432/postgres";
  const name = `bench_team_store_${process.pid}`;
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE "${name}"`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/** Bytes of every file under the workspace's projects (transcripts, subagent transcripts, tool results). */
function filesBytes(ws: string): number {
  let total = 0;
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && /\.(jsonl|txt)$/.test(e.name) && p.includes(`${path.sep}sessions${path.sep}`)) total += statSync(p).size;
    }
  };
  walk(path.join(ws, "projects"));
  return total;
}

async function main(): Promise<void> {
  const ws = path.resolve(arg("--workspace") ?? "/work/.bench-2k/workspace");
  const given = arg("--database");
  const made = given === undefined ? await freshDatabase() : null;
  const url = given ?? made!.url;
  // The team server's catalog: every catalog call of this process (and its workers) goes to PostgreSQL.
  process.env.CASEFILE_DATABASE_URL = url;
  console.log(`team store bench: ${ws} into ${new URL(url).pathname.slice(1)}`);
  try {
    await measure(ws, url);
  } finally {
    await closePostgres(url);
    if (made && !process.argv.includes("--keep")) await made.drop();
  }
}

async function measure(ws: string, url: string): Promise<void> {
  const ctx = createCoreContext(ws, { oneShot: true });
  const [rows, rowsMs] = await timed(() => refreshCatalog(ctx));
  console.log(`rows: ${rows.projects} projects, ${rows.sessions_updated} sessions written in ${ms(rowsMs)}`);
  const [filled, fillMs] = await timed(() => fillFullText(ctx));
  console.log(`full-text fill: ${filled.sessions_indexed} sessions, ${filled.lines_indexed} lines in ${ms(fillMs)} (${((filled.lines_indexed / fillMs) * 1000).toFixed(0)} lines/s)`);
  const pool = await openPostgres(url);
  // Every catalog table (the line partitions included) with its TOAST and indexes; the GIN indexes apart.
  const size = (
    await pool.query<{ bytes: string; gin: string; partitions: string }>(
      `SELECT sum(pg_total_relation_size(c.oid)) AS bytes, count(*) FILTER (WHERE c.relispartition) AS partitions,
              (SELECT sum(pg_relation_size(i.oid)) FROM pg_class i JOIN pg_am a ON a.oid = i.relam WHERE a.amname = 'gin' AND i.relname LIKE 'catalog\\_%') AS gin
       FROM pg_class c WHERE c.relkind = 'r' AND c.relname LIKE 'catalog\\_%'`,
    )
  ).rows[0]!;
  const source = filesBytes(ws);
  console.log(`catalog ${(Number(size.bytes) / 1e6).toFixed(0)} MB in ${size.partitions} line partitions (GIN ${(Number(size.gin) / 1e6).toFixed(0)} MB) = ${(Number(size.bytes) / source).toFixed(2)}× the files' ${(source / 1e6).toFixed(0)} MB`);

  const projects = await catalogProjects(ctx);
  const sessions = projects.reduce((n, p) => n + p.session_count, 0);
  const largest = [...projects].sort((a, b) => b.session_count - a.session_count)[0]!;
  const since = new Date(Date.now() - 30 * 86400_000).toISOString().slice(0, 10);
  const pages: [string, () => Promise<unknown>][] = [
    ["list_projects (home page)", () => catalogProjects(ctx)],
    ["get_usage by day, 30 days (home page)", () => catalogUsage(ctx, getUsageInputSchema.parse({ group_by: "day", since }))],
    ["get_usage of the project (project page)", () => catalogUsage(ctx, getUsageInputSchema.parse({ group_by: "project", project_key: largest.project_key }))],
    [`list_sessions, ${largest.session_count} sessions (project page)`, () => catalogListSessions(ctx, { project_key: largest.project_key, sort: "started_at", order: "desc", limit: 50 })],
    ["list_sessions q=session, by tokens", () => catalogListSessions(ctx, { project_key: largest.project_key, q: "session", sort: "total_tokens", order: "desc", limit: 50 })],
  ];
  console.log(`pages on ${projects.length} projects, ${sessions} sessions (goal ≤ 300 ms):`);
  for (const [name, call] of pages) {
    const [, cold] = await timed(call);
    const warm: number[] = [];
    for (let i = 0; i < 5; i++) warm.push((await timed(call))[1]);
    console.log(`  ${name.padEnd(44)} first ${ms(cold)}, then p50 ${ms(pct(warm, 50))}, max ${ms(Math.max(...warm))}`);
  }

  const all: number[] = [];
  for (const [kind, queries] of Object.entries(QUERIES)) {
    const times: number[] = [];
    const totals: number[] = [];
    for (const query of queries) {
      const [r, took] = await timed(() => searchSessions(ctx, searchSessionsInputSchema.parse({ query })));
      times.push(took);
      totals.push(r.total);
      if (r.coverage.lines_unchecked > 0) console.log(`  ${query}: ${r.coverage.lines_unchecked} candidate lines left unchecked`);
    }
    all.push(...times);
    console.log(`search ${kind.padEnd(8)} p50 ${ms(pct(times, 50))}, p95 ${ms(pct(times, 95))}, max ${ms(Math.max(...times))} over ${queries.length} queries (hits: median ${pct(totals, 50)}, max ${Math.max(...totals)})`);
  }
  console.log(`search, every query: p50 ${ms(pct(all, 50))}, p95 ${ms(pct(all, 95))} (goal p50 ≤ 500 ms)`);
  for (const query of SELECTIVE) {
    const [r, took] = await timed(() => searchSessions(ctx, searchSessionsInputSchema.parse({ query })));
    console.log(`  selective filter ${query.padEnd(40)} ${ms(took).padStart(8)}, ${r.total} hits, ${r.coverage.lines_unchecked} lines unchecked`);
  }
  const biggest = (await pool.query<{ project_key: string; session_ref: string; size_bytes: string }>("SELECT project_key, session_ref, size_bytes FROM catalog_sessions WHERE missing = 0 ORDER BY size_bytes DESC LIMIT 1")).rows[0]!;
  const find: number[] = [];
  for (const query of [...QUERIES.word!.slice(0, 10), ...QUERIES.phrase!.slice(0, 5)]) {
    find.push((await timed(() => searchSessions(ctx, searchSessionsInputSchema.parse({ query, project_key: biggest.project_key, session_ref: biggest.session_ref, transcript: "main", order: "line", limit: 200 }))))[1]);
  }
  console.log(`find in session (${biggest.session_ref}, ${(Number(biggest.size_bytes) / 1e6).toFixed(1)} MB) p50 ${ms(pct(find, 50))}, p95 ${ms(pct(find, 95))}`);
}

await main();
