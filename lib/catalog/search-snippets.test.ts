/** Issue 35 item 1: a search hit's snippet is its own line's text, on many sessions and lines. */
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { lineFacts } from "@/lib/catalog/extract";
import { HIT_CLOSE, HIT_OPEN, type SearchHit, searchSessionsInputSchema } from "@/lib/catalog/schema";
import { SEARCH_LIMITS, searchSessions } from "@/lib/catalog/search";
import { createCoreContext, type CoreContext } from "@/lib/context";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { buildTestWorkspace } from "@/lib/testing/workspace-builder";
import { loadWorkspace } from "@/lib/workspace/load";
import { sessionFilesAt } from "@/lib/workspace/sessions";
import { syncWorkspace } from "@/lib/workspace/sync";

/** Every hit of `query`, page by page. */
async function allHits(ctx: CoreContext, query: string) {
  const first = await searchSessions(ctx, searchSessionsInputSchema.parse({ query, limit: 200 }));
  const hits = [...first.hits];
  for (let offset = 200; offset < first.total; offset += 200) hits.push(...(await searchSessions(ctx, searchSessionsInputSchema.parse({ query, limit: 200, offset }))).hits);
  return hits;
}

/** A snippet's text without its marks and cut ellipses, split where it was cut. */
function snippetPieces(snippet: string): string[] {
  return snippet.replaceAll(HIT_OPEN, "").replaceAll(HIT_CLOSE, "").split("…").map((p) => p.trim()).filter((p) => p !== "");
}

describe("search snippets", () => {
  it("come from the hit's own line, for every hit of 40 sessions of look-alike turns", async () => {
    const lines = (s: number) =>
      Array.from({ length: 6 }, (_, i) => JSON.stringify({ type: "user", timestamp: "2026-05-12T01:00:00Z", message: { role: "user", content: `turn ${i + 1} question about conc-${s}-${i + 1}` } })).join("\n") + "\n";
    const refs = Array.from({ length: 40 }, (_, s) => `S${String(s + 1).padStart(4, "0")}`);
    const root = await buildTestWorkspace(refs.map((ref, s) => ({ ref, content: lines(s) })));
    const ctx = createCoreContext(root, { oneShot: true });
    const hits = await allHits(ctx, '"question about conc"');
    expect(hits).toHaveLength(240);
    for (const hit of hits) {
      const s = refs.indexOf(hit.session_ref);
      expect(hit.snippet, `${hit.session_ref} line ${hit.line_number}`).toBe(`turn ${hit.line_number} ${HIT_OPEN}question about conc${HIT_CLOSE}-${s}-${hit.line_number}`);
    }
  });

  it("a query found on more lines than its budget of bytes checks says how many it left unchecked: the newest sessions' lines are checked first", async () => {
    const refs = Array.from({ length: 40 }, (_, s) => `S${String(s + 1).padStart(4, "0")}`);
    const lines = (s: number) => Array.from({ length: 200 }, (_, i) => JSON.stringify({ type: "user", message: { role: "user", content: `needle ${s}-${i}` } })).join("\n") + "\n";
    const root = await buildTestWorkspace(refs.map((ref, s) => ({ ref, content: lines(s) })));
    const ctx = createCoreContext(root, { oneShot: true });
    const whole = await searchSessions(ctx, searchSessionsInputSchema.parse({ query: "needle" }));
    expect(whole).toMatchObject({ total: 8000, sessions: 40, coverage: { lines_unchecked: 0 } });
    const budget = SEARCH_LIMITS.checkBytes;
    SEARCH_LIMITS.checkBytes = 2000;
    try {
      const cut = await searchSessions(ctx, searchSessionsInputSchema.parse({ query: "eedle" }));
      expect(cut.coverage.lines_unchecked).toBeGreaterThan(0);
      expect(cut.total + cut.coverage.lines_unchecked).toBe(8000);
      // The lines checked are the last indexed session's.
      expect(new Set(cut.hits.map((h) => h.session_ref))).toEqual(new Set(["S0040"]));
    } finally {
      SEARCH_LIMITS.checkBytes = budget;
    }
    // A file removed since it was indexed: its lines are not read, and the result says how many.
    const ws = await loadWorkspace(ctx);
    const project = ws.projects[0]!;
    await fs.rm(path.join(project.dir, project.rows.find((r) => r.session_ref === "S0007")!.session_path));
    const gone = await searchSessions(ctx, searchSessionsInputSchema.parse({ query: "needl" }));
    expect(gone).toMatchObject({ total: 7800, coverage: { lines_unchecked: 200 } });
    expect(gone.hits.some((h) => h.session_ref === "S0007")).toBe(false);
  });

  it.skipIf(!HAS_SHARED)("come from the hit's own line on the corpus, for common words in every kind of record", async () => {
    if (!HAS_SHARED) console.warn(SKIP_SHARED_MESSAGE);
    const sources = await makeTempDir("casefile-snippet-src-");
    await fs.cp(path.join(SHARED_DIR, "corpus", "claude-code"), path.join(sources, "claude"), { recursive: true });
    await fs.cp(path.join(SHARED_DIR, "corpus", "codex"), path.join(sources, "codex"), { recursive: true });
    const ctx = createCoreContext(await makeTempDir("casefile-snippet-ws-"), { oneShot: true });
    await syncWorkspace(ctx, { sources: { claude: [path.join(sources, "claude")], codex: [path.join(sources, "codex")], demo: false } });
    const ws = await loadWorkspace(ctx);
    // The hit's own line, read from its file (transcript, subagent transcript or tool result), as a reader sees its text.
    const bodyOf = async (hit: SearchHit) => {
      const project = ws.projects.find((p) => p.projectKey === hit.project_key)!;
      const row = project.rows.find((r) => r.session_ref === hit.session_ref)!;
      const file = (await sessionFilesAt(project.dir, path.join(project.dir, row.session_path))).find((f) => f.kind === hit.file.kind && f.id === hit.file.id)!;
      const line = (await fs.readFile(file.path, "utf8")).split(/\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/)[hit.line_number - 1]!;
      return file.kind === "tool_result" ? line : lineFacts(line).text;
    };
    let checked = 0;
    for (const [query, needle] of [["function", "function"], ["error", "error"], ["README", "readme"], ['"git status"', "git status"]] as const) {
      const hits = (await allHits(ctx, query)).slice(0, 400);
      expect(hits.length, query).toBeGreaterThan(5);
      for (const hit of hits) {
        const body = (await bodyOf(hit)).replace(/\s+/g, " ");
        expect(hit.snippet.toLowerCase(), `${query}: ${hit.session_ref} line ${hit.line_number}`).toContain(`${HIT_OPEN}${needle}${HIT_CLOSE}`);
        for (const piece of snippetPieces(hit.snippet)) expect(body, `${query}: ${hit.session_ref} line ${hit.line_number}`).toContain(piece);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(200);
  }, 180_000);
});
