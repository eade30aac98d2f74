/**
 * Issue 37, Done when: words and phrases taken from every kind of record of the shared corpus
 * (deep inside tool results, thinking, subagents, persisted tool results, Codex calls and outputs,
 * system records, summaries) find exactly the sessions whose files hold them (a case-insensitive
 * scan of each line's visible text), and every snippet is its own line's text.
 */
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { lineFacts } from "@/lib/catalog/extract";
import { refreshCatalog } from "@/lib/catalog/refresh";
import { HIT_CLOSE, HIT_OPEN, type SearchHit, searchSessionsInputSchema } from "@/lib/catalog/schema";
import { searchSessions } from "@/lib/catalog/search";
import { createCoreContext, type CoreContext } from "@/lib/context";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { loadWorkspace } from "@/lib/workspace/load";
import { sessionFilesAt } from "@/lib/workspace/sessions";
import { syncWorkspace } from "@/lib/workspace/sync";

/** Physical line terminators (contract §1.6), as the index numbers lines. */
const TERMINATOR = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

/** One line of one file of one session: where it is, what kind of record it is, and its visible text. */
type Scanned = { session: string; file: string; line: number; kind: string; text: string };

/** The record kind a line's words are taken from: what the issue names (tool results deep inside, thinking, …). */
function kindOf(fileKind: string, source: string, raw: string): string {
  if (fileKind === "tool_result") return "persisted tool result";
  if (fileKind === "subagent") return "subagent transcript";
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    return "not JSON";
  }
  if (source === "codex") {
    const payload = (value.payload ?? value) as Record<string, unknown>;
    return `codex ${String(payload.type ?? value.type)}`;
  }
  const content = (value.message as { content?: unknown } | undefined)?.content;
  if (Array.isArray(content)) {
    const types = content.map((c) => (c as { type?: string }).type);
    if (types.includes("tool_result")) return "tool result";
    if (types.includes("thinking")) return "thinking";
    if (types.includes("tool_use")) return "tool input";
  }
  return `claude ${String(value.type)}`;
}

async function scanWorkspace(ctx: CoreContext): Promise<Scanned[]> {
  const out: Scanned[] = [];
  for (const project of (await loadWorkspace(ctx)).projects) {
    for (const row of project.rows) {
      for (const file of await sessionFilesAt(project.dir, path.join(project.dir, row.session_path))) {
        const lines = (await fs.readFile(file.path, "utf8")).split(TERMINATOR);
        lines.forEach((raw, i) => {
          if (raw.trim() === "") return;
          const text = file.kind === "tool_result" ? raw : lineFacts(raw).text;
          if (text !== "") out.push({ session: `${project.projectKey}/${row.session_ref}`, file: `${file.kind}/${file.id ?? ""}`, line: i + 1, kind: kindOf(file.kind, row.source, raw), text });
        });
      }
    }
  }
  return out;
}

/**
 * Words of ≥ 7 letters (and two-word phrases) from each record kind, taken from where a capped
 * index never looked: past the first 1,000 characters of the line's text when it is that long.
 * Rare ones first (found in the fewest sessions), so each word tells sessions apart.
 */
function pickTerms(scanned: Scanned[]): { kind: string; term: string }[] {
  const sessionsOf = new Map<string, Set<string>>();
  for (const s of scanned) for (const w of new Set(s.text.toLowerCase().match(/[a-z]{7,}/g) ?? [])) (sessionsOf.get(w) ?? sessionsOf.set(w, new Set()).get(w)!).add(s.session);
  const byKind = new Map<string, Scanned[]>();
  for (const s of scanned) (byKind.get(s.kind) ?? byKind.set(s.kind, []).get(s.kind)!).push(s);
  const out: { kind: string; term: string }[] = [];
  for (const [kind, lines] of [...byKind.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const deep = lines.map((l) => (l.text.length > 2000 ? l.text.slice(1000) : l.text));
    const words = [...new Set(deep.flatMap((t) => t.toLowerCase().match(/[a-z]{7,}/g) ?? []))].filter((w) => sessionsOf.has(w)).sort((a, b) => sessionsOf.get(a)!.size - sessionsOf.get(b)!.size || a.localeCompare(b));
    const chosen = words.filter((w, i) => i % 7 === 0).slice(0, 2);
    for (const w of chosen) out.push({ kind, term: w });
    const phrase = deep.map((t) => /\b([A-Za-z]{4,} [A-Za-z]{4,})\b/.exec(t)?.[1]).find((p) => p !== undefined);
    if (phrase) out.push({ kind, term: `"${phrase}"` });
  }
  return out;
}

describe.skipIf(!HAS_SHARED)("search finds what a grep of the visible text finds (issue 37)", () => {
  if (!HAS_SHARED) it.skip(SKIP_SHARED_MESSAGE, () => {});

  it("for words and phrases from every record kind of the corpus: the same sessions, and snippets from the hit's own line", async () => {
    const sources = await makeTempDir("casefile-recall-src-");
    await fs.cp(path.join(SHARED_DIR, "corpus", "claude-code"), path.join(sources, "claude"), { recursive: true });
    await fs.cp(path.join(SHARED_DIR, "corpus", "codex"), path.join(sources, "codex"), { recursive: true });
    const ctx = createCoreContext(await makeTempDir("casefile-recall-ws-"), { oneShot: true });
    await syncWorkspace(ctx, { sources: { claude: [path.join(sources, "claude")], codex: [path.join(sources, "codex")], demo: false } });
    await refreshCatalog(ctx);
    const scanned = await scanWorkspace(ctx);
    const terms = pickTerms(scanned);
    const kinds = new Set(terms.map((t) => t.kind));
    // The record kinds the issue names are all there.
    for (const kind of ["tool result", "thinking", "subagent transcript", "persisted tool result", "tool input", "claude system", "claude summary", "codex function_call", "codex function_call_output", "codex message"]) expect(kinds, kind).toContain(kind);
    expect(terms.length).toBeGreaterThanOrEqual(20);
    const lineOf = new Map(scanned.map((s) => [`${s.session}/${s.file}:${s.line}`, s.text]));
    for (const { kind, term } of terms) {
      const needle = term.replaceAll('"', "").toLowerCase();
      const expected = [...new Set(scanned.filter((s) => s.text.toLowerCase().includes(needle)).map((s) => s.session))].sort();
      const hits: SearchHit[] = [];
      let total = 0;
      for (let offset = 0; offset === 0 || offset < total; offset += 200) {
        const page = await searchSessions(ctx, searchSessionsInputSchema.parse({ query: term, limit: 200, offset }));
        expect(page.status, term).toBe("ok");
        expect(page.coverage.lines_unchecked, term).toBe(0);
        total = page.total;
        hits.push(...page.hits);
      }
      expect([...new Set(hits.map((h) => `${h.project_key}/${h.session_ref}`))].sort(), `${kind}: ${term}`).toEqual(expected);
      expect(hits.length, `${kind}: ${term}`).toBe(scanned.filter((s) => s.text.toLowerCase().includes(needle)).length);
      for (const h of hits) {
        const own = lineOf.get(`${h.project_key}/${h.session_ref}/${h.file.kind}/${h.file.id ?? ""}:${h.line_number}`);
        expect(own, `${term}: ${h.session_ref} ${h.file.kind} line ${h.line_number}`).toBeDefined();
        // The marks are plain text: a line's own "[[" or "]]" (code) is set aside on both sides.
        const flat = own!.replace(/\s+/g, " ").replaceAll(HIT_OPEN, "").replaceAll(HIT_CLOSE, "");
        for (const piece of h.snippet.replaceAll(HIT_OPEN, "").replaceAll(HIT_CLOSE, "").split("…").map((p) => p.trim()).filter((p) => p !== "")) expect(flat, `${term}: snippet of ${h.session_ref} line ${h.line_number}`).toContain(piece);
        expect(h.snippet.toLowerCase(), term).toContain(HIT_OPEN);
      }
    }
  }, 300_000);
});
