/** Seed 003 analysis of the corpus transcripts: resets and risk checked by hand. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

import { analyzeSessionFile } from "@/lib/analysis/analyze-file";
import { readChatExport } from "@/lib/analysis/export-links";
import { pairExports, readExportCandidates } from "@/lib/workspace/exports";
import type { FileRead } from "@/lib/analysis/schema";
import { discoverClaudeSessions } from "@/lib/sources/claude-code/discover";
import { listFilesRecursive } from "@/lib/sources/common/walk-files";
import { HAS_SHARED, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

const EXAMPLES = path.join(SHARED_DIR, "corpus/claude-code/phantom-reads/session-examples");
const CORPUS = path.join(SHARED_DIR, "corpus");

type Rec = Record<string, unknown> & { type?: string; message?: { content?: unknown; usage?: Record<string, number> } };

/** Independent reading of a file: every line JSON.parse'd (the seed's own approach). */
function records(file: string): { line: number; rec: Rec | null; raw: string }[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .map((raw, i) => {
      try {
        return { line: i + 1, rec: JSON.parse(raw) as Rec, raw };
      } catch {
        return { line: i + 1, rec: null, raw };
      }
    });
}
const blocks = (r: Rec | null): Record<string, unknown>[] => (Array.isArray(r?.message?.content) ? (r.message.content as Record<string, unknown>[]) : []);

/** The seed's count_context_resets, transcribed as literally as TypeScript allows. */
function seedResets(file: string, threshold = 10_000): [number, number, number][] {
  const out: [number, number, number][] = [];
  let prev = 0;
  for (const { line, rec } of records(file)) {
    if (rec?.type !== "assistant") continue;
    const cacheRead = rec.message?.usage?.cache_read_input_tokens ?? 0;
    if (cacheRead > 0) {
      if (prev > 0 && cacheRead < prev - threshold) out.push([line, prev, cacheRead]);
      prev = cacheRead;
    }
  }
  return out;
}

const toolResultFiles = (file: string): string[] | null => {
  const dir = path.join(file.slice(0, -".jsonl".length), "tool-results");
  return existsSync(dir) ? readdirSync(dir) : null;
};

async function claudeFiles(): Promise<string[]> {
  return (await listFilesRecursive(path.join(CORPUS, "claude-code"))).filter((f) => f.endsWith(".jsonl"));
}

describe.skipIf(!HAS_SHARED)(`seed 003 figures on the session-examples (${HAS_SHARED ? "" : SKIP_SHARED_MESSAGE})`, () => {
  const main = (dir: string) => {
    const name = readdirSync(path.join(EXAMPLES, dir)).find((n) => /^[0-9a-f-]{36}\.jsonl$/.test(n))!;
    return path.join(EXAMPLES, dir, name);
  };

  it("2.0.58-good: one reset at line 36, 82K → 20K, low risk", async () => {
    const a = await analyzeSessionFile(main("2.0.58-good"), "claude-code");
    expect(a.resets.map((r) => [r.session_line, r.from_tokens, r.to_tokens])).toEqual([[36, 82270, 20308]]);
    expect(a.risk_level).toBe("low");
    expect(a.resets[0]!.position_percent).toBeCloseTo((36 / a.line_count) * 100, 1);
  });

  it("2.0.58-bad: resets at lines 36 (83K → 20K), 57 (116K → 20K), 69 (146K → 20K), high risk", async () => {
    const a = await analyzeSessionFile(main("2.0.58-bad"), "claude-code");
    expect(a.resets.map((r) => [r.session_line, Math.round(r.from_tokens / 1000), Math.round(r.to_tokens / 1000)])).toEqual([
      [36, 83, 20],
      [57, 116, 20],
      [69, 146, 20],
    ]);
    expect(a.risk_level).toBe("high");
    const first = a.resets[0]!;
    expect(first.total_input_tokens).toBe(first.to_tokens + (first.cache_creation_tokens ?? 0) + a.token_points.find((p) => p.line === 36)!.input);
  });

  it("a configurable threshold changes what counts as a reset", async () => {
    const file = main("2.0.58-bad");
    expect((await analyzeSessionFile(file, "claude-code", 100_000)).resets.map((r) => r.session_line)).toEqual([69]);
    expect((await analyzeSessionFile(file, "claude-code", 1)).resets.length).toBe(seedResets(file, 1).length);
  });

  it("2.1.6-bad: the seed's Q4 table: 11 persisted reads (lines 20–50), 7 inline (64+), batch of 5 on line 27", async () => {
    const a = await analyzeSessionFile(main("2.1.6-bad"), "claude-code", 10_000, { toolResultFiles: toolResultFiles(main("2.1.6-bad")), hasSubagents: true, export: null });
    const reads = a.reads as FileRead[];
    expect(reads.map((r) => [r.line, r.persisted])).toEqual([
      [20, true], [27, true], [27, true], [27, true], [27, true], [27, true], [44, true], [47, true], [48, true], [49, true], [50, true],
      [64, false], [65, false], [69, false], [72, false], [77, false], [82, false], [87, false],
    ]);
    expect(new Set(reads.filter((r) => r.line === 27).map((r) => r.batch)).size).toBe(1);
    expect(reads.find((r) => r.tool_use_id === "toolu_0162qTLwBAPom8tHQpddvAev")?.file_path).toMatch(/stage_release\.py$/);
    expect(a.has_tool_results).toBe(true);
    expect(a.markers).toEqual([]);
    expect(a.marker_mentions_in_conversation).toBeGreaterThan(0);
  });

  it("agent files per session (Q1): flat era by sessionId, era 2 from subagents/", async () => {
    const found = await discoverClaudeSessions(EXAMPLES);
    const agents = (dir: string) => found.candidates.find((c) => c.path === main(dir))!.subagents.map((p) => path.basename(p));
    expect(agents("2.0.58-good")).toEqual(["agent-07bd3f25.jsonl", "agent-17c7da61.jsonl", "agent-af401ba5.jsonl"]);
    expect(agents("2.1.6-good")).toEqual(["agent-aee03d2.jsonl"]);
    for (const c of found.candidates) {
      // Renamed main files (2.0.58-init-only) still carry their sessionId inside.
      const mainId = records(c.path).find((r) => typeof r.rec?.sessionId === "string")?.rec?.sessionId;
      for (const agent of c.subagents) {
        const ids = new Set(records(agent).map((r) => r.rec?.sessionId).filter(Boolean));
        expect([...ids]).toEqual([mainId]);
      }
    }
  });

  it("Workscope IDs and export pairs (Q2): every example pairs with its own export", async () => {
    const dirs = readdirSync(EXAMPLES).filter((d) => d !== "2.0.58-init-only");
    const sessions = [];
    for (const d of dirs) sessions.push({ key: d, workscopeId: (await analyzeSessionFile(main(d), "claude-code")).workscope_id });
    expect(Object.fromEntries(sessions.map((s) => [s.key, s.workscopeId]))).toMatchObject({ "2.1.6-good": "20260113-095602", "2.0.58-good": "20260113-020300" });
    const exports = await readExportCandidates(dirs.flatMap((d) => readdirSync(path.join(EXAMPLES, d)).filter((n) => n.endsWith(".txt")).map((n) => path.join(EXAMPLES, d, n))));
    const { paired, unpaired } = pairExports(sessions, exports);
    expect(unpaired).toEqual([]);
    for (const d of dirs) expect(path.dirname(paired.get(d)!)).toBe(path.join(EXAMPLES, d));
  });

  it("export tool lines link to the transcript lines of the same tool calls (scroll-linking)", async () => {
    const file = main("2.1.6-bad");
    const chat = await readChatExport(path.join(EXAMPLES, "2.1.6-bad/2.1.6-bad.txt"), "2.1.6-bad.txt", file, "claude-code");
    const at = (exportLine: number) => chat.links.find((l) => l.export_line === exportLine)?.session_line;
    // ⏺ Read(dev/journal/archive/Journal-Workscope-…) is the Read on line 20; the five standards reads share line 27.
    expect(at(60)).toBe(20);
    expect([77, 80, 83, 86, 89].map(at)).toEqual([27, 27, 27, 27, 27]);
    expect(at(230)).toBe(49);
    expect(chat.links.length).toBeGreaterThan(25);
    const lines = chat.links.map((l) => l.session_line);
    expect(lines).toEqual([...lines].sort((a, b) => a - b));
  });

  it("an export with an unknown Workscope ID is reported, not dropped", () => {
    const { paired, unpaired } = pairExports([{ key: "S1", workscopeId: "20260101-000000" }], [
      { path: "/x/a.txt", workscopeId: "20260101-000000" },
      { path: "/x/b.txt", workscopeId: "20260101-000000" },
      { path: "/x/c.txt", workscopeId: "20990101-000000" },
      { path: "/x/d.txt", workscopeId: null },
    ]);
    expect(paired.get("S1")).toBe("/x/a.txt");
    expect(unpaired.map((u) => path.basename(u.path))).toEqual(["b.txt", "c.txt", "d.txt"]);
  });
});

describe.skipIf(!HAS_SHARED)(`every Claude Code file of the shared corpus (${HAS_SHARED ? "" : SKIP_SHARED_MESSAGE})`, () => {
  it("resets equal the seed algorithm; reads, success and persistence equal an independent count; no marker from conversation text", async () => {
    const files = await claudeFiles();
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      const a = await analyzeSessionFile(file, "claude-code", 10_000, { toolResultFiles: toolResultFiles(file), hasSubagents: false, export: null });
      const recs = records(file);
      expect(a.resets.map((r) => [r.session_line, r.from_tokens, r.to_tokens]), file).toEqual(seedResets(file));
      expect(a.risk_level, file).toBe(a.resets.length >= 2 ? "high" : "low");
      expect(a.token_points.length, file).toBe(recs.filter((r) => r.rec?.type === "assistant" && r.rec.message?.usage).length);

      const readUses = recs.flatMap((r) => (r.rec?.type === "assistant" ? blocks(r.rec).filter((b) => b.type === "tool_use" && b.name === "Read").map((b) => ({ id: b.id as string, line: r.line })) : []));
      const reads = a.reads as FileRead[];
      expect(reads.map((r) => [r.tool_use_id, r.line]), file).toEqual(readUses.map((u) => [u.id, u.line]));

      // A resumed session may log the same tool_use twice: each read takes the first result after it.
      const results = recs.flatMap((r) => blocks(r.rec).filter((b) => b.type === "tool_result").map((b) => ({ id: b.tool_use_id as string, line: r.line, ok: b.is_error !== true })));
      for (const read of reads) {
        const res = results.find((x) => x.id === read.tool_use_id && x.line > read.line);
        expect([read.result_line, read.success], `${file} ${read.tool_use_id}`).toEqual(res ? [res.line, res.ok] : [null, null]);
      }

      const present = new Set((toolResultFiles(file) ?? []).map((n) => n.split(".")[0]));
      for (const read of reads) expect(read.persisted, `${file} ${read.tool_use_id}`).toBe(present.has(read.tool_use_id));
      expect(a.has_tool_results).toBe(present.size > 0);

      // The seed's caveat: marker strings in conversation text are never phantom-read markers.
      for (const hit of a.markers) {
        const block = blocks(recs[hit.line - 1]!.rec).find((b) => b.type === "tool_result" && b.tool_use_id === hit.tool_use_id)!;
        const c = block.content as string | { text?: string }[];
        const lead = typeof c === "string" ? c : (c.find((p) => typeof p.text === "string")?.text ?? "");
        expect(lead.trimStart().startsWith(hit.marker), file).toBe(true);
      }
      // Mentions: message lines (≤ 64 KB) naming a marker outside tool_result content: prompts,
      // user text blocks, assistant records. Progress, system and snapshot records are not conversation.
      const named = (s: string) => s.includes("persisted-output") || s.includes("Old tool result content cleared");
      const mentions = recs.filter(({ rec, raw }) => {
        if (!named(raw) || Buffer.byteLength(raw) > 64 * 1024) return false;
        if (rec?.type === "assistant") return true;
        if (rec?.type !== "user") return false;
        const c = rec.message?.content;
        return typeof c === "string" ? named(c) : blocks(rec).some((b) => b.type === "text" && typeof b.text === "string" && named(b.text));
      }).length;
      expect(a.marker_mentions_in_conversation, file).toBe(mentions);
    }
  });

  it("the session-examples record no phantom-read marker in any tool_result, though the strings occur in the text (Q3–Q6)", async () => {
    const files = (await claudeFiles()).filter((f) => f.startsWith(EXAMPLES));
    let mentions = 0;
    for (const file of files) {
      const a = await analyzeSessionFile(file, "claude-code");
      expect(a.markers, file).toEqual([]);
      mentions += a.marker_mentions_in_conversation;
    }
    expect(mentions).toBeGreaterThan(10);
  });

  it("Codex rollouts: token points from token_count events, no cache creation, reads unavailable with a reason", async () => {
    const files = (await listFilesRecursive(path.join(CORPUS, "codex"))).filter((f) => f.endsWith(".jsonl"));
    let withPoints = 0;
    for (const file of files) {
      const a = await analyzeSessionFile(file, "codex");
      expect(a.reads).toMatchObject({ value: null });
      expect(a.persistence).toMatchObject({ value: null });
      expect(a.token_points.every((p) => p.cache_creation === null)).toBe(true);
      expect(a.token_notes.join(" ")).toMatch(/cache creation/);
      if (a.token_points.length > 0) withPoints += 1;
    }
    expect(withPoints).toBeGreaterThanOrEqual(2);
  });
});
