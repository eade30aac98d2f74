/**
 * The store suite (issue 39): the rows every CatalogStore keeps — projects, sessions, turns,
 * risk, usage, search documents and their progress — and its write transactions, with written
 * expectations, so the SQLite store and the PostgreSQL one are held to the same results
 * (store-sqlite.test.ts and store-postgres.test.ts run it; the search cases are
 * store-search-suite.ts's).
 */
import { describe, expect, it } from "vitest";

import type { ExtractedLines } from "@/lib/catalog/extract-lines";
import type { CatalogStore, SessionFacts, SessionIdentity } from "@/lib/catalog/store";
import { WordPacker } from "@/lib/catalog/trigram-tokens";

/** A project row of the cases. */
function projectRow(key: string, ord: number) {
  return { project_key: key, ord, project_label: `Project ${key}`, index_stamp: `i-${key}`, session_count: 2, turn_count: 3, cwd: `/src/${key}`, git_branch: "main", broken_rows: "[]" };
}

/** A session's identity of the cases. */
function identity(project_key: string, session_ref: string, ord: number, over: Partial<SessionIdentity> = {}): SessionIdentity {
  return { project_key, session_ref, ord, source: "claude-code", source_session_id: `sid-${session_ref}`, session_path: `sessions/${session_ref}.jsonl`, turn_count: 2, machine: "laptop", ...over };
}

/** A session's facts of the cases. */
function facts(ord: number, over: Partial<SessionFacts> = {}): SessionFacts {
  return {
    ord,
    file_stamp: `${100 + ord}:1`,
    started_at: "2026-01-01T10:00:00.000Z",
    ended_at: "2026-01-01T11:00:00.000Z",
    duration_seconds: 3600,
    turn_count: 2,
    first_user_message: "hello",
    subagent_count: 0,
    size_bytes: 100 + ord,
    status: "completed",
    status_recent: 0,
    last_response_preview: "done",
    output_tokens: 10,
    total_tokens: 100,
    cost_usd: 0.5,
    usage_buckets: "[]",
    usage_last_ms: 1_767_261_600_000,
    usage_stamp: "prices-1",
    ...over,
  };
}

/** Extracted lines numbered `lines`, each with the text `line N`, and calls where given (line number → call ids). */
function extracted(lines: number[], calls: Record<number, { tools: string; files: string; calls: string }> = {}): ExtractedLines {
  const words = new WordPacker();
  for (const n of lines) words.add(`line ${n}`);
  return {
    size: lines.length * 10,
    head: new Uint8Array(0),
    lines: Uint32Array.from(lines),
    starts: Float64Array.from(lines.map((_, i) => i * 10)),
    lens: Uint32Array.from(lines.map(() => 9)),
    ends: Float64Array.from(lines.map((_, i) => (i + 1) * 10)),
    roles: Uint8Array.from(lines.map(() => 1)),
    errors: Uint8Array.from(lines.map(() => 0)),
    times: Float64Array.from(lines.map(() => Number.NaN)),
    words: words.take(),
    tools: lines.map((n) => calls[n]?.tools ?? ""),
    files: lines.map((n) => calls[n]?.files ?? ""),
    calls: lines.map((n) => calls[n]?.calls ?? ""),
    consumed: lines.length * 10,
    lastLine: lines.at(-1) ?? 0,
  };
}

/** Every candidate line of one session (no words, no filter but the session), as `docId:line`, in line order. */
async function sessionLines(store: CatalogStore, project: string, ref: string): Promise<string[]> {
  const out: string[] = [];
  await store.scanCandidates(
    { words: null, projects: [project], sessions: [ref], agents: [], machines: [], roles: [], tools: [], files: [], errors: false, noErrors: false, after: null, before: null, since: null, until: null, transcript: null, order: "line" },
    (c) => (out.push(`${c.docId}:${c.line}`), true),
  );
  return out;
}

/**
 * Registers the store cases; `open` gives a new, empty store for each case.
 */
export function storeSuite(open: () => Promise<CatalogStore>): void {
  describe("catalog store rows", () => {
    it("writes project rows, their order and coverage, and lists them most recently active first", async () => {
      const store = await open();
      await store.upsertProject(projectRow("a", 0));
      await store.upsertProject(projectRow("b", 1));
      await store.upsertProject(projectRow("c", 2));
      expect(await store.projectStamp("a")).toEqual({ project_key: "a", ord: 0, index_stamp: "i-a", coverage_stamp: null });
      expect(await store.projectStamp("zz")).toBeUndefined();
      // Replaced in place; coverage kept across an upsert.
      await store.setCoverage("a", { coverage_stamp: "c1", turns_with_chain: 1, covered_turns: 2, indexed_turns: 3, synthesis_complete: 1, has_envelope: 0, problem: "linked out" });
      await store.upsertProject({ ...projectRow("a", 5), project_label: "A again", index_stamp: "i-a2" });
      await store.setProjectOrd("b", 7);
      expect((await store.projectStamps()).sort((x, y) => x.project_key.localeCompare(y.project_key))).toEqual([
        { project_key: "a", ord: 5, index_stamp: "i-a2", coverage_stamp: "c1" },
        { project_key: "b", ord: 7, index_stamp: "i-b", coverage_stamp: null },
        { project_key: "c", ord: 2, index_stamp: "i-c", coverage_stamp: null },
      ]);
      // a: activity 2026-03 (an ended session), b: 2026-05 (a session with only a start), c: none.
      const a1 = await store.insertSession(identity("a", "a1", 0));
      await store.updateSessionFacts(a1, facts(0, { started_at: "2026-03-01T00:00:00.000Z", ended_at: "2026-03-02T00:00:00.000Z", total_tokens: 40 }));
      const a2 = await store.insertSession(identity("a", "a2", 1));
      await store.updateSessionFacts(a2, facts(1, { started_at: "2026-01-01T00:00:00.000Z", ended_at: null, total_tokens: null }));
      const b1 = await store.insertSession(identity("b", "b1", 0));
      await store.updateSessionFacts(b1, facts(0, { started_at: "2026-05-01T00:00:00.000Z", ended_at: null, total_tokens: 7 }));
      await store.insertSession(identity("c", "c1", 0));
      const listed = await store.listProjects();
      expect(listed.map((p) => [p.project_key, p.last_activity_at, p.total_tokens])).toEqual([
        ["b", "2026-05-01T00:00:00.000Z", 7],
        ["a", "2026-03-02T00:00:00.000Z", 40],
        ["c", null, null],
      ]);
      expect(listed[1]).toEqual({
        project_key: "a",
        project_label: "A again",
        session_count: 2,
        turn_count: 3,
        cwd: "/src/a",
        git_branch: "main",
        broken_rows: "[]",
        turns_with_chain: 1,
        covered_turns: 2,
        indexed_turns: 3,
        synthesis_complete: 1,
        has_envelope: 0,
        last_activity_at: "2026-03-02T00:00:00.000Z",
        total_tokens: 40,
        problem: "linked out",
      });
    });

    it("makes a session row once, keeps its turns, stamps and machine, and compares it as a refresh does", async () => {
      const store = await open();
      await store.upsertProject(projectRow("p", 0));
      const id = await store.insertSession(identity("p", "s1", 0));
      // Made again (another process between two transactions): the same row.
      expect(await store.insertSession(identity("p", "s1", 3, { source_session_id: "other" }))).toBe(id);
      const other = await store.insertSession(identity("p", "s2", 1, { machine: null }));
      expect(other).not.toBe(id);
      await store.replaceTurns(id, [
        { turn_ref: "T2", turn_start_line: 9, turn_end_line: 12 },
        { turn_ref: "T1", turn_start_line: 1, turn_end_line: 8 },
      ]);
      await store.updateSessionFacts(id, facts(0, { status: "active", status_recent: 1 }));
      await store.setSessionMachine(other, "desktop");
      const stored = (await store.storedSessions("p")).sort((x, y) => x.id - y.id);
      expect(stored).toEqual([
        { id, session_ref: "s1", source_session_id: "sid-s1", session_path: "sessions/s1.jsonl", turns_sig: "T1:1:8,T2:9:12", file_stamp: "100:1", status_recent: 1, machine: "laptop" },
        { id: other, session_ref: "s2", source_session_id: "sid-s2", session_path: "sessions/s2.jsonl", turns_sig: null, file_stamp: null, status_recent: 0, machine: "desktop" },
      ]);
      expect((await store.sessionStamps()).sort((x, y) => x.session_ref.localeCompare(y.session_ref))).toEqual([
        { project_key: "p", session_ref: "s1", file_stamp: "100:1", status_recent: 1 },
        { project_key: "p", session_ref: "s2", file_stamp: null, status_recent: 0 },
      ]);
      expect(await store.sessionStamps("none")).toEqual([]);
      // A status that did not change writes nothing and says so.
      expect(await store.setSessionStatus(id, "active", 1)).toBe(false);
      expect(await store.setSessionStatus(id, "completed", 0)).toBe(true);
      expect(await store.setSessionStatus(id, null, 0)).toBe(true);
      expect(await store.setSessionStatus(id, null, 0)).toBe(false);
      await store.replaceTurns(id, [{ turn_ref: "T9", turn_start_line: 3, turn_end_line: 4 }]);
      expect((await store.storedSessions("p")).find((s) => s.id === id)?.turns_sig).toBe("T9:3:4");
      expect(await store.turnAt(id, 3)).toBe("T9");
      expect(await store.turnAt(id, 5)).toBeNull();
      expect(await store.hitSession(id)).toEqual({ project_key: "p", session_ref: "s1", source_session_id: "sid-s1", first_user_message: "hello", machine: "laptop" });
      expect(await store.hitSession(999_999)).toBeUndefined();
    });

    it("pages a project's sessions: filters, every order with nulls last, ties by ref", async () => {
      const store = await open();
      await store.upsertProject(projectRow("p", 0));
      const rows = [
        { ref: "s1", source: "claude-code", machine: "laptop", tokens: 300, first: "Fix the ÜBER parser", risk: "high" },
        { ref: "s2", source: "codex", machine: "desktop", tokens: null, first: "deploy", risk: null },
        { ref: "s3", source: "claude-code", machine: "desktop", tokens: 300, first: null, risk: "low" },
        { ref: "s4", source: "claude-code", machine: null, tokens: 50, first: "über alles", risk: "high" },
      ];
      for (const [ord, r] of rows.entries()) {
        const id = await store.insertSession(identity("p", r.ref, ord, { source: r.source, machine: r.machine }));
        await store.updateSessionFacts(id, facts(ord, { total_tokens: r.tokens, first_user_message: r.first }));
        if (r.risk !== null) await store.storeRisks([{ id, risk_stamp: `${100 + ord}:1`, risk_level: r.risk, reset_count: ord }]);
      }
      await store.insertSession(identity("other", "x1", 0));
      const page = async (over: Partial<Parameters<CatalogStore["listSessions"]>[0]>) => {
        const { total, rows: got } = await store.listSessions({ project_key: "p", sort: "total_tokens", order: "desc", limit: 10, offset: 0, ...over });
        return { total, refs: got.map((r) => r.session_ref) };
      };
      expect(await page({})).toEqual({ total: 4, refs: ["s1", "s3", "s4", "s2"] });
      expect(await page({ order: "asc" })).toEqual({ total: 4, refs: ["s4", "s1", "s3", "s2"] });
      expect(await page({ limit: 2, offset: 1 })).toEqual({ total: 4, refs: ["s3", "s4"] });
      expect(await page({ q: "über" })).toEqual({ total: 2, refs: ["s1", "s4"] });
      expect(await page({ q: "SID-S2" })).toEqual({ total: 1, refs: ["s2"] });
      expect(await page({ q: "codex" })).toEqual({ total: 1, refs: ["s2"] });
      expect(await page({ risk: "high" })).toEqual({ total: 2, refs: ["s1", "s4"] });
      expect(await page({ source: "claude-code", machine: "desktop" })).toEqual({ total: 1, refs: ["s3"] });
      expect(await page({ sort: "risk_level", order: "asc" })).toEqual({ total: 4, refs: ["s1", "s4", "s3", "s2"] });
      const { rows: [first] } = await store.listSessions({ project_key: "p", sort: "session_ref", order: "asc", limit: 1, offset: 0 });
      expect(first).toEqual({
        session_ref: "s1",
        source: "claude-code",
        source_session_id: "sid-s1",
        machine: "laptop",
        started_at: "2026-01-01T10:00:00.000Z",
        ended_at: "2026-01-01T11:00:00.000Z",
        duration_seconds: 3600,
        turn_count: 2,
        first_user_message: "Fix the ÜBER parser",
        subagent_count: 0,
        size_bytes: 100,
        output_tokens: 10,
        total_tokens: 300,
        cost_usd: 0.5,
        status: "completed",
        last_response_preview: "done",
        risk_level: "high",
        reset_count: 0,
      });
    });

    it("keeps risk with the file stamp it was computed for: stale, stored, pending, stale again when the file moves", async () => {
      const store = await open();
      await store.upsertProject(projectRow("p", 0));
      const a = await store.insertSession(identity("p", "b-second", 0));
      const b = await store.insertSession(identity("p", "a-first", 1));
      const gone = await store.insertSession(identity("p", "c-gone", 2));
      await store.updateSessionFacts(a, facts(0));
      await store.updateSessionFacts(b, facts(1));
      await store.markSessionMissing(gone, 2, 1);
      expect(await store.staleRisks("p")).toEqual([
        { id: b, session_ref: "a-first", session_path: "sessions/a-first.jsonl", file_stamp: "101:1" },
        { id: a, session_ref: "b-second", session_path: "sessions/b-second.jsonl", file_stamp: "100:1" },
      ]);
      await store.write(async (tx) => {
        // Joins the open transaction.
        await tx.storeRisks([{ id: a, risk_stamp: "100:1", risk_level: "high", reset_count: 3 }]);
      });
      await store.storeRisks([{ id: b, risk_stamp: null, risk_level: null, reset_count: null }]);
      expect((await store.staleRisks("p")).map((s) => s.session_ref)).toEqual(["a-first"]);
      await store.updateSessionFacts(a, facts(0, { file_stamp: "200:2" }));
      expect((await store.staleRisks("p")).map((s) => s.session_ref)).toEqual(["a-first", "b-second"]);
      // The risk computed for the earlier file stays shown until the new one is known.
      expect((await store.listSessions({ project_key: "p", sort: "session_ref", order: "asc", limit: 5, offset: 0, risk: "high" })).rows.map((r) => r.session_ref)).toEqual(["b-second"]);
    });

    it("gives get_usage its rows by source, project, machine and time, and stores usage recomputed", async () => {
      const store = await open();
      await store.upsertProject(projectRow("p", 0));
      await store.upsertProject(projectRow("q", 1));
      const s1 = await store.insertSession(identity("p", "s1", 0));
      const s2 = await store.insertSession(identity("p", "s2", 1, { source: "codex", machine: "desktop" }));
      const s3 = await store.insertSession(identity("q", "s3", 0, { source: "control-plane" }));
      const s4 = await store.insertSession(identity("q", "s4", 1, { machine: null }));
      await store.updateSessionFacts(s1, facts(0, { usage_buckets: '[{"a":1}]', usage_last_ms: 1000 }));
      await store.updateSessionFacts(s2, facts(1, { usage_buckets: '[{"b":2}]', usage_last_ms: 5000 }));
      await store.updateSessionFacts(s3, facts(0));
      await store.updateSessionFacts(s4, facts(1, { usage_last_ms: null }));
      const refs = async (q: Parameters<CatalogStore["usageRows"]>[0]) => (await store.usageRows(q)).map((r) => r.session_ref).sort();
      const sources = ["claude-code", "codex"];
      expect(await refs({ sources })).toEqual(["s1", "s2", "s4"]);
      expect(await refs({ sources, project_key: "p" })).toEqual(["s1", "s2"]);
      expect(await refs({ sources, source: "codex" })).toEqual(["s2"]);
      expect(await refs({ sources, machine: "laptop" })).toEqual(["s1"]);
      expect(await refs({ sources, sinceMs: 2000 })).toEqual(["s2"]);
      expect(await refs({ sources, timedOnly: true })).toEqual(["s1", "s2"]);
      expect(await refs({ sources: [] })).toEqual([]);
      expect((await store.usageRows({ sources, source: "codex" }))[0]).toEqual({ id: s2, project_key: "p", session_ref: "s2", source_session_id: "sid-s2", source: "codex", machine: "desktop", usage_buckets: '[{"b":2}]', usage_stamp: "prices-1" });
      await store.setUsage(s2, { output_tokens: 1, total_tokens: 2, cost_usd: null, usage_buckets: "[]", usage_last_ms: null, usage_stamp: "prices-2" });
      expect((await store.usageRows({ sources, source: "codex" }))[0]).toMatchObject({ usage_buckets: "[]", usage_stamp: "prices-2" });
      expect(await refs({ sources, timedOnly: true })).toEqual(["s1"]);
      const listed = (await store.listSessions({ project_key: "p", sort: "session_ref", order: "asc", limit: 5, offset: 0 })).rows[1]!;
      expect([listed.output_tokens, listed.total_tokens, listed.cost_usd]).toEqual([1, 2, null]);
      expect(await store.bigSessions(101, ["claude-code", "codex"])).toEqual([
        { project_key: "p", session_ref: "s2" },
        { project_key: "q", session_ref: "s4" },
      ]);
      expect(await store.bigSessions(0, [])).toEqual([]);
    });

    it("indexes a document's lines in batches with its progress, resumes, resets and drops it, and covers the sessions whose lines are in step", async () => {
      const store = await open();
      await store.upsertProject(projectRow("p", 0));
      const sid = await store.insertSession(identity("p", "s1", 0));
      const other = await store.insertSession(identity("p", "s2", 1));
      await store.updateSessionFacts(sid, facts(0));
      await store.updateSessionFacts(other, facts(1));
      expect(await store.staleFullText("p")).toEqual([
        { id: sid, session_path: "sessions/s1.jsonl", source: "claude-code", indexed_bytes: 0 },
        { id: other, session_path: "sessions/s2.jsonl", source: "claude-code", indexed_bytes: 0 },
      ]);
      expect(await store.fullTextCoverage({})).toEqual({ sessions_indexed: 0, sessions_total: 2 });
      const before = await store.indexStamp();
      const main = await store.addSearchDoc(sid, 0, "", "sessions/s1.jsonl");
      const result = await store.addSearchDoc(sid, 2, "toolu_1", "sessions/s1/tool-results/toolu_1.txt");
      expect(result).toBeGreaterThan(main);
      expect(await store.docProgress(main)).toEqual({ indexed_bytes: 0, indexed_lines: 0, head_sha: null });
      const ex = extracted([1, 2, 4, 5], { 2: { tools: "Read", files: "/a.ts", calls: "toolu_1" }, 5: { tools: "Bash\nRead", files: "", calls: "toolu_2\ntoolu_3" } });
      await store.write(async (tx) => {
        expect(await tx.addLines(main, { extracted: ex, from: 0, to: 2, progress: { indexed_bytes: 20, indexed_lines: 2, head_sha: "h1" } })).toBe(true);
        await tx.commitIfDue(0);
        expect(await tx.addLines(main, { extracted: ex, from: 2, to: 4, progress: { indexed_bytes: 40, indexed_lines: 6, head_sha: "h1" } })).toBe(true);
      });
      expect(await store.docProgress(main)).toEqual({ indexed_bytes: 40, indexed_lines: 6, head_sha: "h1" });
      await store.setDocStamp(main, "40:1");
      await store.setFtsStamp(sid, "100:1");
      expect(await store.searchDocs(sid)).toEqual(
        expect.arrayContaining([
          { id: main, kind: 0, name: "", stamp: "40:1" },
          { id: result, kind: 2, name: "toolu_1", stamp: null },
        ]),
      );
      expect(await store.indexStamp()).not.toBe(before);
      expect(await store.staleFullText("p")).toEqual([{ id: other, session_path: "sessions/s2.jsonl", source: "claude-code", indexed_bytes: 0 }]);
      expect(await store.fullTextCoverage({})).toEqual({ sessions_indexed: 1, sessions_total: 2 });
      expect(await store.fullTextCoverage({ machine: "desktop" })).toEqual({ sessions_indexed: 0, sessions_total: 0 });
      expect(await sessionLines(store, "p", "s1")).toEqual([`${main}:1`, `${main}:2`, `${main}:4`, `${main}:5`]);
      // The calls of the last lines with calls, in line order; the line calling a persisted result.
      expect(await store.lastCalls(main, 10)).toEqual([
        { tools: "Read", files: "/a.ts", calls: "toolu_1" },
        { tools: "Bash\nRead", files: null, calls: "toolu_2\ntoolu_3" },
      ]);
      expect(await store.lastCalls(main, 1)).toEqual([{ tools: "Bash\nRead", files: null, calls: "toolu_2\ntoolu_3" }]);
      expect(await store.callLine(sid, "toolu_3")).toBe(5);
      expect(await store.callLine(sid, "toolu_")).toBeNull();
      expect(await store.callLine(other, "toolu_1")).toBeNull();
      // A file rewritten: its lines and progress forgotten.
      await store.resetDoc(main);
      expect(await store.docProgress(main)).toEqual({ indexed_bytes: 0, indexed_lines: 0, head_sha: null });
      expect(await sessionLines(store, "p", "s1")).toEqual([]);
      await store.addLines(main, { extracted: ex, from: 0, to: 4, progress: { indexed_bytes: 40, indexed_lines: 5, head_sha: "h2" } });
      await store.dropSearchDoc(result);
      expect((await store.searchDocs(sid)).map((d) => d.id)).toEqual([main]);
      // A document dropped meanwhile (its session dropped by a rows refresh): nothing is written for it.
      await store.dropSession(sid);
      expect(await store.addLines(main, { extracted: ex, from: 0, to: 4, progress: { indexed_bytes: 40, indexed_lines: 5, head_sha: "h2" } })).toBe(false);
      expect(await store.docProgress(main)).toBeUndefined();
      expect(await sessionLines(store, "p", "s1")).toEqual([]);
      expect(await store.fullTextCoverage({ project_key: "p" })).toEqual({ sessions_indexed: 0, sessions_total: 1 });
    });

    it("forgets what a session whose file is gone held, and drops sessions and projects with all of theirs", async () => {
      const store = await open();
      await store.upsertProject(projectRow("p", 0));
      await store.upsertProject(projectRow("q", 1));
      const s1 = await store.insertSession(identity("p", "s1", 0));
      const s2 = await store.insertSession(identity("q", "s2", 0));
      for (const id of [s1, s2]) {
        await store.updateSessionFacts(id, facts(0));
        await store.replaceTurns(id, [{ turn_ref: "T1", turn_start_line: 1, turn_end_line: 3 }]);
        const doc = await store.addSearchDoc(id, 0, "", "x.jsonl");
        await store.addLines(doc, { extracted: extracted([1, 2]), from: 0, to: 2, progress: { indexed_bytes: 20, indexed_lines: 2, head_sha: null } });
        await store.setFtsStamp(id, "100:1");
        await store.storeRisks([{ id, risk_stamp: "100:1", risk_level: "low", reset_count: 0 }]);
      }
      await store.markSessionMissing(s1, 4, 7);
      const { rows: [missing] } = await store.listSessions({ project_key: "p", sort: "session_ref", order: "asc", limit: 1, offset: 0 });
      expect(missing).toMatchObject({ started_at: null, ended_at: null, duration_seconds: null, turn_count: 7, first_user_message: null, subagent_count: 0, size_bytes: 0, output_tokens: null, total_tokens: null, cost_usd: null, status: null, last_response_preview: null, risk_level: null, reset_count: null });
      expect(await store.sessionStamps("p")).toEqual([{ project_key: "p", session_ref: "s1", file_stamp: null, status_recent: 0 }]);
      expect(await store.searchDocs(s1)).toEqual([]);
      expect(await sessionLines(store, "p", "s1")).toEqual([]);
      expect(await store.staleFullText("p")).toEqual([]);
      expect(await store.staleRisks("p")).toEqual([]);
      expect(await store.usageRows({ sources: ["claude-code"] })).toHaveLength(1);
      expect(await store.fullTextCoverage({})).toEqual({ sessions_indexed: 1, sessions_total: 1 });
      // Present again once its file is read.
      await store.updateSessionFacts(s1, facts(4));
      expect(await store.staleFullText("p")).toHaveLength(1);
      await store.dropSession(s1);
      expect(await store.storedSessions("p")).toEqual([]);
      expect(await store.turnAt(s1, 1)).toBeNull();
      await store.dropProject("q");
      expect((await store.projectStamps()).map((p) => p.project_key)).toEqual(["p"]);
      expect(await store.sessionStamps()).toEqual([]);
      expect(await store.searchDocs(s2)).toEqual([]);
    });

    it("commits a write when it resolves, rolls it back when it throws, and joins one already open", async () => {
      const store = await open();
      expect(store.writing()).toBe(false);
      await store.write(async (tx) => {
        expect(tx.writing()).toBe(true);
        await tx.upsertProject(projectRow("kept", 0));
        await tx.commitIfDue();
        // A nested write joins the open one.
        await tx.write(async (inner) => inner.upsertProject(projectRow("inner", 1)));
        expect(tx.writing()).toBe(true);
      });
      expect(store.writing()).toBe(false);
      await expect(
        store.write(async (tx) => {
          await tx.upsertProject(projectRow("lost", 2));
          await tx.insertSession(identity("lost", "s1", 0));
          throw new Error("cut");
        }),
      ).rejects.toThrow("cut");
      expect(store.writing()).toBe(false);
      expect((await store.projectStamps()).map((p) => p.project_key).sort()).toEqual(["inner", "kept"]);
      expect(await store.sessionStamps()).toEqual([]);
      // What was committed before a throw stays (a fill's batches already committed).
      await expect(
        store.write(async (tx) => {
          await tx.upsertProject(projectRow("committed", 3));
          await tx.commitIfDue(0);
          await tx.upsertProject(projectRow("rolled-back", 4));
          throw new Error("cut");
        }),
      ).rejects.toThrow("cut");
      expect((await store.projectStamps()).map((p) => p.project_key).sort()).toEqual(["committed", "inner", "kept"]);
      // Outside a write, commitIfDue does nothing.
      await store.commitIfDue(0);
      expect(store.writing()).toBe(false);
    });

    it("runs one holder of the index lock at a time", async () => {
      const store = await open();
      const order: string[] = [];
      const hold = (name: string) =>
        store.withIndexLock(async () => {
          order.push(`${name} in`);
          await new Promise((resolve) => setTimeout(resolve, 20));
          order.push(`${name} out`);
          return name;
        });
      expect(await Promise.all([hold("a"), hold("b")])).toEqual(["a", "b"]);
      expect(order).toEqual(["a in", "a out", "b in", "b out"]);
    });
  });
}
