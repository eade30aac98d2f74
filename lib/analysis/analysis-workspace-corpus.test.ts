/** The corpus prepared into a workspace and analysed: no file skipped, every export paired. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

import type { FileRead, SessionAnalysis } from "@/lib/analysis/schema";
import { createCoreContext, type CoreContext } from "@/lib/context";
import { listFilesRecursive } from "@/lib/sources/common/walk-files";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { callTool } from "@/lib/tools/registry";
import { loadWorkspace } from "@/lib/workspace/load";
import { prepareWorkspace, type PrepareSummary } from "@/lib/workspace/prepare";

/**
 * Issue 10 "Done when", through the tool door on EVERY session of the shared corpus: the whole
 * corpus (Claude Code and Codex) is prepared into one workspace, then `analyze_session` and
 * `list_sessions` are checked against figures computed here independently from the source
 * files (plain `JSON.parse` of every line, `readdir` of the source folders, a regex over the
 * exports), never through lib/analysis or the discovery code.
 */

const CORPUS = path.join(SHARED_DIR, "corpus");
const CLAUDE = path.join(CORPUS, "claude-code");
const EXAMPLES = path.join(CLAUDE, "phantom-reads/session-examples");
const CALL = { door: "cli" as const };

type Rec = { type?: string; sessionId?: string; isSidechain?: boolean; message?: { content?: unknown }; payload?: Record<string, unknown> };

function recordsOf(file: string): { line: number; rec: Rec | null }[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .map((raw, i) => {
      try {
        return { line: i + 1, rec: JSON.parse(raw) as Rec };
      } catch {
        return { line: i + 1, rec: null };
      }
    });
}
const blocks = (r: Rec | null): Record<string, unknown>[] => (Array.isArray(r?.message?.content) ? (r.message.content as Record<string, unknown>[]) : []);
const WORKSCOPE = /Workscope ID: (\d{8}-\d{6})/;

/**
 * Seed 003 Q1, by hand: `<stem>/subagents/agent-*.jsonl`, plus flat siblings that are sidechains
 * of this sessionId. Both, not either: 2.0.60-bad has a `<stem>/` folder (tool-results only) and
 * its agents flat beside it, where the seed's either/or sketch would find none.
 */
function expectedAgents(main: string): string[] {
  const sub = path.join(main.slice(0, -".jsonl".length), "subagents");
  const nested = existsSync(sub) ? readdirSync(sub).filter((n) => /^agent-.*\.jsonl$/.test(n)) : [];
  const sessionId = recordsOf(main).find((r) => typeof r.rec?.sessionId === "string")?.rec?.sessionId;
  const dir = path.dirname(main);
  const flat = readdirSync(dir)
    .filter((n) => n.endsWith(".jsonl") && path.join(dir, n) !== main)
    .filter((n) => {
      const recs = recordsOf(path.join(dir, n)).filter((r) => r.rec !== null);
      return recs.length > 0 && recs.every((r) => r.rec!.isSidechain === true && r.rec!.sessionId === sessionId);
    });
  return [...nested, ...flat].sort();
}

/** tool_use_ids with a `tool-results/<id>.*` file beside the source transcript. */
function expectedPersisted(main: string): Set<string> {
  const dir = path.join(main.slice(0, -".jsonl".length), "tool-results");
  return new Set(existsSync(dir) ? readdirSync(dir).map((n) => n.split(".")[0]!) : []);
}

/** The seed's reset rule over any series of cache-read figures: [line, from, to]. */
function seedResets(points: { line: number; cacheRead: number }[]): [number, number, number][] {
  const out: [number, number, number][] = [];
  let prev = 0;
  for (const p of points) {
    if (p.cacheRead <= 0) continue;
    if (prev > 0 && p.cacheRead < prev - 10_000) out.push([p.line, prev, p.cacheRead]);
    prev = p.cacheRead;
  }
  return out;
}

/** Codex by hand: token_count events with an object `last_token_usage`, a repeat of the previous total skipped. */
function codexPoints(file: string): { line: number; cacheRead: number; input: number }[] {
  const out: { line: number; cacheRead: number; input: number }[] = [];
  let lastTotal: string | null = null;
  for (const { line, rec } of recordsOf(file)) {
    const info = rec?.type === "event_msg" && rec.payload?.type === "token_count" ? (rec.payload.info as Record<string, unknown> | null) : null;
    const last = info?.last_token_usage;
    if (typeof last !== "object" || last === null) continue;
    const total = JSON.stringify(info!.total_token_usage ?? null);
    if (total === lastTotal) continue;
    lastTotal = total;
    const l = last as Record<string, number>;
    out.push({ line, cacheRead: l.cached_input_tokens ?? 0, input: (l.input_tokens ?? 0) - (l.cached_input_tokens ?? 0) });
  }
  return out;
}

/** The seed's session-examples and the export each must pair with (seed 003 Q2; first Workscope ID of the export). */
const EXPECTED_EXPORTS: Record<string, { exportFile: string; workscopeId: string }> = {
  "2.0.58-bad": { exportFile: "2.0.58-bad.txt", workscopeId: "20260113-015117" },
  "2.0.58-good": { exportFile: "2.0.58-good.txt", workscopeId: "20260113-020300" },
  "2.0.58-init-only": { exportFile: "sample-export.txt", workscopeId: "20260112-170310" },
  "2.0.59-bad": { exportFile: "2.0.59-bad.txt", workscopeId: "20260112-200608" },
  "2.0.60-bad": { exportFile: "2.0.60-bad.txt", workscopeId: "20260113-003444" },
  "2.0.60-good": { exportFile: "2.0.60-good.txt", workscopeId: "20260113-010330" },
  "2.1.3-bad": { exportFile: "bad-2.1.3.txt", workscopeId: "20260112-204511" },
  "2.1.6-bad": { exportFile: "2.1.6-bad.txt", workscopeId: "20260113-100413" },
  "2.1.6-good": { exportFile: "2.1.6-good.txt", workscopeId: "20260113-095602" },
};

type Row = { project: string; ref: string; source: string; sessionPath: string; wsFile: string; sourceFile: string; analysis: SessionAnalysis & { status: string } };

describe.skipIf(!HAS_SHARED)(`analyze_session on every session of the shared corpus, prepared (${HAS_SHARED ? "" : SKIP_SHARED_MESSAGE})`, () => {
  let ctx: CoreContext;
  let summary: PrepareSummary;
  const rows: Row[] = [];

  beforeAll(async () => {
    ctx = createCoreContext(await makeTempDir("analysis-corpus-ws-"), { now: () => new Date("2026-11-23T10:00:00Z") });
    summary = await prepareWorkspace(ctx, { claudeRoots: [CLAUDE], codexRoots: [path.join(CORPUS, "codex")] });
    const sources = (await listFilesRecursive(CORPUS)).filter((f) => f.endsWith(".jsonl"));
    for (const p of (await loadWorkspace(ctx)).projects) {
      for (const r of p.rows) {
        const base = path.basename(r.session_path);
        const matches = sources.filter((f) => path.basename(f) === base);
        expect(matches, base).toHaveLength(1);
        const analysis = (await callTool(ctx, "analyze_session", { project_key: p.projectKey, session_ref: r.session_ref }, CALL)) as Row["analysis"];
        rows.push({ project: p.projectKey, ref: r.session_ref, source: r.source, sessionPath: r.session_path, wsFile: path.join(p.dir, r.session_path), sourceFile: matches[0]!, analysis });
      }
    }
  }, 120_000);

  it("every corpus session is prepared and analysed (no file skipped, every export paired)", () => {
    expect(summary.skipped).toEqual([]);
    expect(rows.filter((r) => r.source === "claude-code").length).toBe(14);
    expect(rows.filter((r) => r.source === "codex").length).toBe(5);
    expect(rows.every((r) => r.analysis.status === "ok")).toBe(true);
    expect(summary.exports).toEqual({ found: 9, paired: 9, unpaired: [] });
  });

  it("Claude Code: agent files per session (Q1), reads, persistence and markers equal the independent count", async () => {
    for (const row of rows.filter((r) => r.source === "claude-code")) {
      const a = row.analysis;
      const at = row.sourceFile;
      const agents = expectedAgents(at);
      const wsAgents = path.join(row.wsFile.slice(0, -".jsonl".length), "subagents");
      expect(existsSync(wsAgents) ? (await fs.readdir(wsAgents)).sort() : [], at).toEqual(agents);
      expect(a.has_subagents, at).toBe(agents.length > 0);

      const readUses = recordsOf(at).flatMap(({ line, rec }) => (rec?.type === "assistant" ? blocks(rec).filter((b) => b.type === "tool_use" && b.name === "Read").map((b) => [b.id, line]) : []));
      const reads = a.reads as FileRead[];
      expect(reads.map((r) => [r.tool_use_id, r.line]), at).toEqual(readUses);

      const persisted = expectedPersisted(at);
      expect(a.has_tool_results, at).toBe(persisted.size > 0);
      expect(reads.filter((r) => r.persisted).map((r) => r.tool_use_id), at).toEqual(reads.map((r) => r.tool_use_id).filter((id) => persisted.has(id)));
      const persistence = a.persistence as { persisted_reads: string[]; inline_reads: string[]; persisted_non_reads: { tool_use_id: string }[] };
      const readIds = new Set(reads.map((r) => r.tool_use_id));
      expect(persistence.persisted_non_reads.map((p) => p.tool_use_id).sort(), at).toEqual([...persisted].filter((id) => !readIds.has(id)).sort());
      expect(persistence.persisted_reads.length + persistence.inline_reads.length, at).toBe(reads.length);

      // Seed 003 Q3–Q6: no corpus tool_result starts with a marker; every marker string is conversation text.
      expect(a.markers, at).toEqual([]);

      const resets = recordsOf(at).flatMap(({ line, rec }) => {
        const usage = rec?.type === "assistant" ? (rec.message as { usage?: { cache_read_input_tokens?: number } } | undefined)?.usage : undefined;
        return usage ? [{ line, cacheRead: usage.cache_read_input_tokens ?? 0 }] : [];
      });
      expect(a.resets.map((r) => [r.session_line, r.from_tokens, r.to_tokens]), at).toEqual(seedResets(resets));
      expect(a.risk_level, at).toBe(a.reset_count >= 2 ? "high" : "low");
    }
  });

  it("Workscope IDs and export pairs (Q2): each session-example pairs with its own export, copied beside it; no other session gets one", async () => {
    for (const row of rows.filter((r) => r.source === "claude-code")) {
      const rel = path.relative(EXAMPLES, row.sourceFile);
      const dir = rel.startsWith("..") ? null : rel.split(path.sep)[0]!;
      const want = dir ? EXPECTED_EXPORTS[dir] : undefined;
      if (!want) {
        expect(row.analysis.export, row.sourceFile).toBeNull();
        continue;
      }
      const exportText = readFileSync(path.join(EXAMPLES, dir!, want.exportFile), "utf8");
      expect(WORKSCOPE.exec(exportText)?.[1], want.exportFile).toBe(want.workscopeId);
      expect(row.analysis.workscope_id, row.sourceFile).toBe(want.workscopeId);
      expect(readFileSync(row.sourceFile, "utf8")).toContain(want.workscopeId);
      expect(row.analysis.export?.file_name, row.sourceFile).toBe(want.exportFile);
      const copied = path.join(row.wsFile.slice(0, -".jsonl".length), "exports", want.exportFile);
      expect(await fs.readFile(copied, "utf8")).toBe(exportText);
    }
    expect(rows.filter((r) => r.analysis.export !== null).length).toBe(Object.keys(EXPECTED_EXPORTS).length);
  });

  it("Codex: tokens and resets from token_count events; reads, persistence and cache creation said to be unavailable, not 0", () => {
    for (const row of rows.filter((r) => r.source === "codex")) {
      const a = row.analysis;
      const at = row.sourceFile;
      const points = codexPoints(at);
      expect(a.token_points.map((p) => [p.line, p.cache_read, p.input]), at).toEqual(points.map((p) => [p.line, p.cacheRead, p.input]));
      expect(a.token_points.every((p) => p.cache_creation === null), at).toBe(true);
      expect(a.resets.map((r) => [r.session_line, r.from_tokens, r.to_tokens]), at).toEqual(seedResets(points));
      expect(a.resets.every((r) => r.cache_creation_tokens === null), at).toBe(true);
      expect(a.reads, at).toMatchObject({ value: null, reason: expect.any(String) });
      expect(a.persistence, at).toMatchObject({ value: null, reason: expect.any(String) });
      expect(a.token_notes.join(" "), at).toMatch(/no cache creation/i);
      if (points.length === 0) expect(a.token_notes.join(" "), at).toMatch(/no token figures/);
    }
    // The corpus has rollouts with figures and rollouts without (legacy, redacted): both are covered.
    const withPoints = rows.filter((r) => r.source === "codex" && r.analysis.token_points.length > 0).length;
    expect(withPoints).toBeGreaterThanOrEqual(2);
    expect(withPoints).toBeLessThan(5);
  });

  it("list_sessions rows carry the same risk and reset count as analyze_session, for every project", async () => {
    for (const project of new Set(rows.map((r) => r.project))) {
      const listed = (await callTool(ctx, "list_sessions", { project_key: project, limit: 500 }, CALL)) as unknown as { sessions: { session_ref: string; risk_level: string; reset_count: number }[] };
      for (const s of listed.sessions) {
        const row = rows.find((r) => r.project === project && r.ref === s.session_ref)!;
        expect([s.risk_level, s.reset_count], `${project} ${s.session_ref}`).toEqual([row.analysis.risk_level, row.analysis.reset_count]);
      }
    }
  });
});
