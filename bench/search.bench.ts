/**
 * Search that finds everything (issue 37): `npx tsx bench/search.bench.ts [--workspace DIR]`.
 * Without --workspace, prepares the shared corpus (../shared/corpus: distinct real sessions) into a
 * temporary workspace; with it, measures a prepared workspace as it is (e.g. the 20,000-session one
 * `BENCH_KEEP=1 BENCH_PREPARE_ONLY=1 npx tsx bench/many-sessions.bench.ts` leaves in
 * /work/.bench-many-sessions/workspace). Prints:
 * - the index's bytes (the trigram index's tables, `line_meta`, `search_docs`) against the bytes of
 *   every file it reads (transcripts, subagent transcripts, persisted tool results): the ratio;
 * - a fresh full-text fill (what the server runs in the background after a first start, on its worker) against
 *   the yardstick `cp -r` + `wc -l` of the same files;
 *   (`--keep-index`: the index as it is, no fresh fill);
 * - search p50 / p95 over distinct queries (each its first run: no result cached) for words,
 *   phrases, prefixes and filtered queries, and find-in-session on the largest session (as the
 *   viewer asks: its transcript in line order, a page of 200).
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

import { catalogDb } from "@/lib/catalog/catalog";
import { requestFullTextFill } from "@/lib/catalog/full-text-fill";
import { fillFullText } from "@/lib/catalog/full-text-index";
import { refreshCatalog } from "@/lib/catalog/refresh";
import { searchSessionsInputSchema } from "@/lib/catalog/schema";
import { searchSessions } from "@/lib/catalog/search";
import { createCoreContext } from "@/lib/context";

import { SEARCH_BENCH_QUERIES } from "./search-queries";
import { loadWorkspace } from "@/lib/workspace/load";
import { sessionFilesAt } from "@/lib/workspace/sessions";
import { syncWorkspace } from "@/lib/workspace/sync";

const REPO = path.resolve(fileURLToPath(new URL("../", import.meta.url)));
const CORPUS = path.resolve(REPO, "../shared/corpus");
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
};

const QUERIES = SEARCH_BENCH_QUERIES;

const ms = (n: number) => `${n.toFixed(0)} ms`;
const pct = (list: number[], p: number) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor((p / 100) * list.length))]!;

async function main(): Promise<void> {
  let ws = arg("--workspace");
  const made: string[] = [];
  if (ws === undefined) {
    if (!existsSync(CORPUS)) throw new Error(`needs the corpus at ${CORPUS}`);
    const tmp = await fs.mkdtemp(path.join(os.tmpdir(), "casefile-search-bench-"));
    made.push(tmp);
    ws = path.join(tmp, "ws");
    const ctx = createCoreContext(ws, { oneShot: true });
    await syncWorkspace(ctx, { sources: { claude: [path.join(CORPUS, "claude-code")], codex: [path.join(CORPUS, "codex")], demo: false } });
    console.log(`search bench: the shared corpus, prepared into ${ws}`);
  } else console.log(`search bench: the prepared workspace ${ws}`);
  try {
    await measure(ws);
  } finally {
    for (const dir of made) await fs.rm(dir, { recursive: true, force: true });
  }
}

async function measure(ws: string): Promise<void> {
  const ctx = createCoreContext(ws, { oneShot: true });
  const db = catalogDb(ctx);
  await refreshCatalog(ctx);
  // Every file the index reads.
  const files: string[] = [];
  for (const project of (await loadWorkspace(ctx)).projects) {
    for (const row of project.rows) {
      const main = path.join(project.dir, row.session_path);
      if (existsSync(main)) for (const f of await sessionFilesAt(project.dir, main)) files.push(f.path);
    }
  }
  let sourceBytes = 0;
  for (const f of files) sourceBytes += (await fs.stat(f)).size;
  const listFile = path.join(os.tmpdir(), `casefile-search-bench-files-${process.pid}`);
  await fs.writeFile(listFile, files.join("\0"));
  const copyDir = path.join(os.tmpdir(), `casefile-search-bench-copy-${process.pid}`);
  const yardstick = () => {
    const start = performance.now();
    execFileSync("bash", ["-c", `mkdir -p '${copyDir}' && xargs -0 cp --parents -t '${copyDir}' < '${listFile}' && find '${copyDir}' -type f -print0 | xargs -0 cat | wc -l`], { stdio: ["ignore", "ignore", "inherit"] });
    const took = performance.now() - start;
    execFileSync("rm", ["-rf", copyDir]);
    return took;
  };
  if (!process.argv.includes("--keep-index")) {
    const before = yardstick();
    // A fresh fill: the index emptied, as after a first start or a schema change.
    db.exec("DELETE FROM lines_fts; DELETE FROM line_meta; DELETE FROM search_docs; UPDATE sessions SET fts_stamp = NULL;");
    db.exec("VACUUM");
    const fillStart = performance.now();
    // As the server runs it after a first start: on a background worker, with one more extracting.
    const filled = await requestFullTextFill(ws);
    const fillMs = performance.now() - fillStart;
    const after = yardstick();
    db.exec("INSERT INTO lines_fts (lines_fts) VALUES ('optimize')");
    console.log(`${filled.lines_indexed} lines indexed`);
    console.log(`fresh fill ${ms(fillMs)} vs cp + wc -l ${ms(before)} before / ${ms(after)} after = ${(fillMs / before).toFixed(2)}× / ${(fillMs / after).toFixed(2)}× (goal ≤ 3×)`);
  } else await fillFullText(ctx);
  await fs.rm(listFile, { force: true });
  const indexBytes = db.prepare("SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name LIKE 'lines_fts%' OR name IN ('line_meta', 'search_docs')").pluck().get() as number;
  const sessions = db.prepare("SELECT count(*) FROM sessions WHERE missing = 0").pluck().get() as number;
  console.log(`${files.length} files of ${sessions} sessions, ${(sourceBytes / 1e6).toFixed(1)} MB`);
  console.log(`index ${(indexBytes / 1e6).toFixed(1)} MB = ${(indexBytes / sourceBytes).toFixed(3)}× the files' bytes (goal ≤ 0.6×)`);
  for (const [kind, queries] of Object.entries(QUERIES)) {
    const times: number[] = [];
    const totals: number[] = [];
    for (const query of queries) {
      const start = performance.now();
      const r = await searchSessions(ctx, searchSessionsInputSchema.parse({ query }));
      times.push(performance.now() - start);
      totals.push(r.total);
      if (r.coverage.lines_unchecked > 0) console.log(`  ${query}: ${r.coverage.lines_unchecked} candidate lines left unchecked`);
    }
    console.log(`search ${kind.padEnd(8)} p50 ${ms(pct(times, 50))}, p95 ${ms(pct(times, 95))}, max ${ms(Math.max(...times))} over ${queries.length} queries (hits: median ${pct(totals, 50)}, max ${Math.max(...totals)}) (goal p50 ≤ 500 ms, p95 ≤ 1 s)`);
  }
  // Find in session: the largest session, words of its own text.
  const largest = db.prepare("SELECT project_key, session_ref, size_bytes FROM sessions WHERE missing = 0 ORDER BY size_bytes DESC LIMIT 1").get() as { project_key: string; session_ref: string; size_bytes: number };
  const times: number[] = [];
  for (const query of [...QUERIES.word!.slice(0, 10), ...QUERIES.phrase!.slice(0, 5)]) {
    const start = performance.now();
    await searchSessions(ctx, searchSessionsInputSchema.parse({ query, project_key: largest.project_key, session_ref: largest.session_ref, transcript: "main", order: "line", limit: 200 }));
    times.push(performance.now() - start);
  }
  console.log(`find in session (${largest.session_ref}, ${(largest.size_bytes / 1e6).toFixed(1)} MB) p50 ${ms(pct(times, 50))}, p95 ${ms(pct(times, 95))} (goal ≤ 200 ms on the ~1 GB session)`);
}

await main();
