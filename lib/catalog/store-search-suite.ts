/**
 * The search cases of the store suite (issue 39): one set of documents and lines loaded into a
 * {@link CatalogStore}, then every part of the query language as the stores see it — words,
 * phrases, prefixes, substrings inside words (trigram words), OR, short terms, the filters
 * (agent:, role:, tool:, file:, is:error, after:/before:, since/until, machine:, project:,
 * session: and one transcript), both orders, a scan stopped part-way and the count of what it
 * left, and list_sessions' `q` with non-ASCII letters. The expectations are written out, so each
 * store is held to the same results (store-sqlite.test.ts and store-postgres.test.ts run it).
 */
import { beforeAll, describe, expect, it } from "vitest";

import type { ExtractedLines } from "@/lib/catalog/extract-lines";
import type { CandidateLine, CandidateQuery, CatalogStore } from "@/lib/catalog/store";
import { foldCase } from "@/lib/catalog/search-query";
import { termTokens, WordPacker } from "@/lib/catalog/trigram-tokens";
import { ROLE_CODES } from "@/lib/catalog/extract-lines";

/** One line of a fixture document: its number, visible text and facts. */
type FixtureLine = { line: number; text: string; role?: (typeof ROLE_CODES)[number]; error?: boolean; time?: string; tools?: string[]; files?: string[]; calls?: string[] };

/** A fixture line's address as the cases name it: `session_ref/doc/line`, doc "main" or the document's name. */
type Where = string;

const DAY = (d: string) => `${d}T00:00:00.000Z`;

/** The sessions: keys, source, machine, start and last record. */
const SESSIONS = [
  { project_key: "alpha", session_ref: "s1", source: "claude-code", machine: "laptop", started_at: "2026-01-10T09:00:00.000Z", ended_at: "2026-01-10T10:00:00.000Z", first: "Fix the ÜBER parser" },
  { project_key: "alpha", session_ref: "s2", source: "codex", machine: "desktop", started_at: "2026-02-10T09:00:00.000Z", ended_at: "2026-02-11T10:00:00.000Z", first: "deploy the service" },
  { project_key: "beta", session_ref: "s3", source: "claude-code", machine: null, started_at: "2026-03-10T09:00:00.000Z", ended_at: null, first: null },
] as const;

/** Each session's documents (kind 0 main, 1 subagent, 2 tool result), in the order they are made (ids grow). */
const DOCS: { session_ref: string; kind: number; name: string; lines: FixtureLine[] }[] = [
  {
    session_ref: "s1",
    kind: 0,
    name: "",
    lines: [
      { line: 1, text: "Please fix the TypeError: Cannot read properties of undefined", role: "user", time: "2026-01-10T09:00:00.000Z" },
      { line: 2, text: "I will read the parser first.", role: "assistant", time: "2026-01-10T09:01:00.000Z", tools: ["Read"], files: ["/repo/src/Parser.ts"], calls: ["toolu_a"] },
      { line: 4, text: "export function parse(input) { return undefined; }", role: "tool", time: "2026-01-10T09:02:00.000Z", tools: ["Read"], files: ["/repo/src/Parser.ts"] },
      { line: 5, text: "Running the deprecated build: npm run build", role: "assistant", time: "2026-01-10T09:03:00.000Z", tools: ["Bash"], calls: ["toolu_b"] },
      { line: 6, text: "Error: build failed with exit code 2", role: "tool", error: true, time: "2026-01-10T09:04:00.000Z", tools: ["Bash"] },
      { line: 7, text: "ok", role: "assistant", time: "2026-01-10T09:05:00.000Z" },
      { line: 9, text: "Édition du fichier ÉDIT terminée", role: "assistant", tools: ["ÉDIT"], time: "2026-01-10T09:06:00.000Z" },
    ],
  },
  {
    session_ref: "s1",
    kind: 1,
    name: "agent-7",
    lines: [
      { line: 1, text: "Subagent: search the codebase for undeprecated helpers", role: "user", time: "2026-01-10T09:10:00.000Z" },
      { line: 2, text: "Found nothing undefined here", role: "assistant", tools: ["Grep"], time: "2026-01-10T09:11:00.000Z" },
    ],
  },
  {
    session_ref: "s2",
    kind: 0,
    name: "",
    lines: [
      { line: 1, text: "deploy the service to staging", role: "user", time: "2026-02-10T09:00:00.000Z" },
      { line: 2, text: "$ kubectl apply -f deploy.yaml", role: "assistant", tools: ["shell"], files: ["deploy.yaml"], time: "2026-02-10T23:30:00.000Z", calls: ["call_1"] },
      { line: 3, text: "error: the server could not find the requested resource", role: "tool", error: true, tools: ["shell"], files: ["deploy.yaml"], time: "2026-02-11T00:30:00.000Z" },
      { line: 4, text: "Cannot read the cluster config; TypeError thrown", role: "assistant", time: "2026-02-11T09:00:00.000Z" },
    ],
  },
  {
    session_ref: "s3",
    kind: 0,
    name: "",
    lines: [
      { line: 1, text: "What does Σίσυφος mean? deprecation notes please", role: "user" },
      { line: 2, text: "It is Greek: ΣΊΣΥΦΟΣ. The deprecation is documented.", role: "assistant", tools: ["WebFetch"], calls: ["toolu_z"] },
    ],
  },
  {
    session_ref: "s3",
    kind: 2,
    name: "toolu_z",
    lines: [
      { line: 1, text: "<html>cannot read this page: TypeError</html>", role: "tool" },
      { line: 2, text: "footer alpha omega", role: "tool" },
    ],
  },
];

/** The lines of a fixture document as the extractor gives them (words packed by trigram-tokens, meta in columns). */
function extracted(lines: readonly FixtureLine[]): ExtractedLines {
  const words = new WordPacker();
  let at = 0;
  const starts: number[] = [];
  const lens: number[] = [];
  const ends: number[] = [];
  for (const l of lines) {
    words.add(l.text);
    const len = Buffer.byteLength(l.text);
    starts.push(at);
    lens.push(len);
    at += len + 1;
    ends.push(at);
  }
  return {
    size: at,
    head: new Uint8Array(0),
    lines: Uint32Array.from(lines.map((l) => l.line)),
    starts: Float64Array.from(starts),
    lens: Uint32Array.from(lens),
    ends: Float64Array.from(ends),
    roles: Uint8Array.from(lines.map((l) => ROLE_CODES.indexOf(l.role ?? "other"))),
    errors: Uint8Array.from(lines.map((l) => (l.error ? 1 : 0))),
    times: Float64Array.from(lines.map((l) => (l.time === undefined ? Number.NaN : Date.parse(l.time)))),
    words: words.take(),
    tools: lines.map((l) => (l.tools ?? []).join("\n")),
    files: lines.map((l) => (l.files ?? []).join("\n")),
    calls: lines.map((l) => (l.calls ?? []).join("\n")),
    consumed: at,
    lastLine: lines.at(-1)?.line ?? 0,
  };
}

/** A query with no words and no filters; cases override what they test. */
function query(over: Partial<CandidateQuery> = {}): CandidateQuery {
  return { words: null, projects: [], sessions: [], agents: [], machines: [], roles: [], tools: [], files: [], errors: false, noErrors: false, after: null, before: null, since: null, until: null, transcript: null, order: "newest", ...over };
}

/** The index words of a query's terms: each argument one clause, `|` between alternatives (as search-query's OR). */
function words(...clauses: string[]): CandidateQuery["words"] {
  return clauses.map((clause) => clause.split("|").map((term) => termTokens(term)));
}

/**
 * Registers the search cases on the store `open` gives (a new, empty store; called once, before
 * the cases): its documents and lines are loaded, then each case scans it.
 */
export function storeSearchSuite(open: () => Promise<CatalogStore>): void {
  describe("search candidates", () => {
    let store: CatalogStore;
    /** `session_ref/doc/line` of a candidate, doc "main" for a transcript else its name. */
    const docNames = new Map<number, string>();
    const where = (c: CandidateLine): Where => `${docNames.get(c.docId)}/${c.line}`;
    const scan = async (q: CandidateQuery, stopAfter = Infinity): Promise<Where[]> => {
      const seen: Where[] = [];
      await store.scanCandidates(q, (c) => {
        seen.push(where(c));
        return seen.length < stopAfter;
      });
      return seen;
    };
    /** Every fixture line, newest first (documents by id descending, lines descending), that `keep` accepts. */
    const newest = (keep: (session: string, doc: string, l: FixtureLine) => boolean): Where[] =>
      DOCS.map((d, i) => ({ d, i }))
        .reverse()
        .flatMap(({ d }) => [...d.lines].reverse().filter((l) => keep(d.session_ref, d.kind === 0 ? "main" : d.name, l)).map((l) => `${d.session_ref}/${d.kind === 0 ? "main" : d.name}/${l.line}`));
    /** A line holding `needle` as the search folds case (lib/catalog/search-query's foldCase). */
    const has = (needle: string) => (_s: string, _d: string, l: FixtureLine) => foldCase(l.text).includes(foldCase(needle));

    beforeAll(async () => {
      store = await open();
      await store.write(async (tx) => {
        for (const [ord, key] of ["alpha", "beta"].entries()) {
          await tx.upsertProject({ project_key: key, ord, project_label: key, index_stamp: "i", session_count: 0, turn_count: 0, cwd: null, git_branch: null, broken_rows: "[]" });
        }
        const ids = new Map<string, number>();
        for (const [ord, s] of SESSIONS.entries()) {
          const id = await tx.insertSession({ project_key: s.project_key, session_ref: s.session_ref, ord, source: s.source, source_session_id: `sid-${s.session_ref}`, session_path: `sessions/${s.session_ref}.jsonl`, turn_count: 1, machine: s.machine });
          ids.set(s.session_ref, id);
          await tx.updateSessionFacts(id, {
            ord,
            file_stamp: "1:1",
            started_at: s.started_at,
            ended_at: s.ended_at,
            duration_seconds: null,
            turn_count: 1,
            first_user_message: s.first,
            subagent_count: 0,
            size_bytes: 100 * (ord + 1),
            status: "completed",
            status_recent: 0,
            last_response_preview: null,
            output_tokens: null,
            total_tokens: null,
            cost_usd: null,
            usage_buckets: "[]",
            usage_last_ms: null,
            usage_stamp: "p",
          });
          await tx.replaceTurns(id, [{ turn_ref: `${s.session_ref}-t1`, turn_start_line: 1, turn_end_line: 6 }]);
        }
        for (const d of DOCS) {
          const docId = await tx.addSearchDoc(ids.get(d.session_ref)!, d.kind, d.name, `sessions/${d.session_ref}/${d.name || "main"}.jsonl`);
          docNames.set(docId, `${d.session_ref}/${d.kind === 0 ? "main" : d.name}`);
          const ex = extracted(d.lines);
          // Two batches, as a fill writes a long document.
          const half = Math.ceil(d.lines.length / 2);
          expect(await tx.addLines(docId, { extracted: ex, from: 0, to: half, progress: { indexed_bytes: ex.ends[half - 1]!, indexed_lines: d.lines[half - 1]!.line, head_sha: null } })).toBe(true);
          expect(await tx.addLines(docId, { extracted: ex, from: half, to: d.lines.length, progress: { indexed_bytes: ex.consumed, indexed_lines: ex.lastLine, head_sha: "h" } })).toBe(true);
        }
      });
    });

    it("a word: the lines holding every trigram of it, any case, newest documents first", async () => {
      expect(await scan(query({ words: words("TypeError") }))).toEqual(newest(has("typeerror")));
      expect(await scan(query({ words: words("UNDEFINED") }))).toEqual(newest(has("undefined")));
    });

    it("a phrase across words, and a substring inside a word (trigrams, not whole words)", async () => {
      expect(await scan(query({ words: words("cannot read") }))).toEqual(newest(has("cannot read")));
      expect(await scan(query({ words: words("ypeErr") }))).toEqual(newest(has("ypeerr")));
      expect(await scan(query({ words: words("eprecat") }))).toEqual(newest(has("eprecat")));
    });

    it("a prefix's candidates are its text anywhere (the line check keeps word starts)", async () => {
      // deprec* : candidates hold "deprec"; "undeprecated" is one, dropped later by matchLine.
      expect(await scan(query({ words: words("deprec") }))).toEqual(newest(has("deprec")));
    });

    it("clauses are ANDed, alternatives ORed, and folded letters outside ASCII match", async () => {
      expect(await scan(query({ words: words("cannot", "typeerror") }))).toEqual(newest((s, d, l) => has("cannot")(s, d, l) && has("typeerror")(s, d, l)));
      expect(await scan(query({ words: words("omega|kubectl") }))).toEqual(newest((s, d, l) => has("omega")(s, d, l) || has("kubectl")(s, d, l)));
      // Σ, final ς and σ fold alike, Ί to ί: both spellings are on both lines.
      expect(await scan(query({ words: words("σίσυφος") }))).toEqual(["s3/main/2", "s3/main/1"]);
      expect(await scan(query({ words: words("ΣΥΦΟΣ") }))).toEqual(newest(has("ΣΥΦΟΣ")));
    });

    it("no words: every line the filters leave; a word no line holds: none", async () => {
      expect(await scan(query({ agents: ["codex"] }))).toEqual(newest((s) => s === "s2"));
      expect(await scan(query({ words: words("zzyzx") }))).toEqual([]);
    });

    it("session filters: project:, agent:, machine:, since and until", async () => {
      expect(await scan(query({ words: words("cannot"), projects: ["beta"] }))).toEqual(["toolu_z/1"].map((w) => `s3/${w}`));
      expect(await scan(query({ words: words("cannot"), agents: ["claude-code"] }))).toEqual(newest((s, d, l) => s !== "s2" && has("cannot")(s, d, l)));
      expect(await scan(query({ words: words("cannot"), machines: ["desktop"] }))).toEqual(["s2/main/4"]);
      expect(await scan(query({ machines: ["laptop", "desktop"], roles: [ROLE_CODES.indexOf("user")] }))).toEqual(["s2/main/1", "s1/agent-7/1", "s1/main/1"]);
      // since: the session's last record (else its start) on or after; until: started on or before.
      expect(await scan(query({ words: words("cannot"), since: "2026-02-11T00:00:00.000Z" }))).toEqual(newest((s, d, l) => s !== "s1" && has("cannot")(s, d, l)));
      expect(await scan(query({ words: words("cannot"), until: "2026-02-10T09:00:00.000Z" }))).toEqual(newest((s, d, l) => s !== "s3" && has("cannot")(s, d, l)));
    });

    it("line filters: role:, tool: (whole name, ASCII case only), file: (substring), is:error and its opposite", async () => {
      expect(await scan(query({ roles: [ROLE_CODES.indexOf("tool")], words: words("cannot") }))).toEqual(["s3/toolu_z/1"]);
      expect(await scan(query({ tools: ["read"] }))).toEqual(["s1/main/4", "s1/main/2"]);
      expect(await scan(query({ tools: ["rea"] }))).toEqual([]);
      expect(await scan(query({ tools: ["bash", "GREP"] }))).toEqual(["s1/agent-7/2", "s1/main/6", "s1/main/5"]);
      // SQLite's lower() folds ASCII letters only: É is not é.
      expect(await scan(query({ tools: ["ÉDIT"] }))).toEqual(["s1/main/9"]);
      expect(await scan(query({ tools: ["édit"] }))).toEqual([]);
      expect(await scan(query({ tools: ["Édit"] }))).toEqual(["s1/main/9"]);
      expect(await scan(query({ files: ["PARSER"] }))).toEqual(["s1/main/4", "s1/main/2"]);
      expect(await scan(query({ files: ["deploy", "nothing"], errors: true }))).toEqual(["s2/main/3"]);
      expect(await scan(query({ errors: true }))).toEqual(["s2/main/3", "s1/main/6"]);
      expect(await scan(query({ noErrors: true, words: words("error") }))).toEqual(newest((s, d, l) => !l.error && has("error")(s, d, l)));
    });

    it("a file: or tool: filter keeping few of a common word's lines (PostgreSQL's trigram indexes of them)", async () => {
      // "the" is on most lines; the filters keep one or two of them, in either order.
      expect(newest(has("the")).length).toBeGreaterThan(6);
      expect(await scan(query({ words: words("the"), files: ["PARSER"] }))).toEqual(["s1/main/2"]);
      expect(await scan(query({ words: words("the"), files: ["src/parser.TS"], order: "line" }))).toEqual(["s1/main/2"]);
      expect(await scan(query({ words: words("the"), files: ["deploy.yaml", "parser"] }))).toEqual(["s2/main/3", "s1/main/2"]);
      expect(await scan(query({ words: words("the"), tools: ["READ"] }))).toEqual(["s1/main/2"]);
      expect(await scan(query({ words: words("the"), tools: ["shell", "grep"] }))).toEqual(["s2/main/3"]);
      // A whole tool name only; LIKE's wildcards and escape are plain text in a filter.
      expect(await scan(query({ words: words("the"), tools: ["she"] }))).toEqual([]);
      expect(await scan(query({ files: ["."] }))).toEqual(["s2/main/3", "s2/main/2", "s1/main/4", "s1/main/2"]);
      expect(await scan(query({ files: ["%"] }))).toEqual([]);
      expect(await scan(query({ files: ["_"] }))).toEqual([]);
      expect(await scan(query({ files: ["\\"] }))).toEqual([]);
      expect(await scan(query({ tools: ["%"] }))).toEqual([]);
      // The count of a word's lines left stays the word's own (the filters narrow only the scan).
      let last: CandidateLine | null = null;
      const q = query({ words: words("the"), files: ["parser"], order: "line" });
      await store.scanCandidates(q, (c) => {
        last = c;
        return true;
      });
      expect(await store.countCandidatesAfter(q, last!)).toBe(newest(has("the")).length - newest(has("the")).reverse().indexOf("s1/main/2") - 1);
    });

    it("after: and before: bound the line's time, else its session's start", async () => {
      expect(await scan(query({ words: words("cannot"), after: DAY("2026-02-11") }))).toEqual(["s3/toolu_z/1", "s2/main/4"]);
      expect(await scan(query({ agents: ["codex"], before: DAY("2026-02-11") }))).toEqual(["s2/main/2", "s2/main/1"]);
      expect(await scan(query({ words: words("deprecation"), after: DAY("2026-03-10"), before: DAY("2026-03-11") }))).toEqual(["s3/main/2", "s3/main/1"]);
      expect(await scan(query({ words: words("deprecation"), after: DAY("2026-03-11") }))).toEqual([]);
    });

    it("session: with one project, and one transcript of it", async () => {
      expect(await scan(query({ projects: ["alpha"], sessions: ["s1"], words: words("undefined") }))).toEqual(["s1/agent-7/2", "s1/main/4", "s1/main/1"]);
      expect(await scan(query({ projects: ["alpha"], sessions: ["s1"], transcript: "main", words: words("undefined") }))).toEqual(["s1/main/4", "s1/main/1"]);
      expect(await scan(query({ projects: ["alpha"], sessions: ["s1"], transcript: "agent-7" }))).toEqual(["s1/agent-7/2", "s1/agent-7/1"]);
      expect(await scan(query({ projects: ["alpha"], sessions: ["nope"], words: words("undefined") }))).toEqual([]);
      expect(await scan(query({ projects: ["alpha", "beta"], sessions: ["s1", "s3"], words: words("cannot") }))).toEqual(newest((s, d, l) => s !== "s2" && has("cannot")(s, d, l)));
    });

    it("line order: documents and lines ascending", async () => {
      expect(await scan(query({ words: words("undefined"), order: "line" }))).toEqual(newest(has("undefined")).reverse());
      expect(await scan(query({ projects: ["alpha"], sessions: ["s1"], transcript: "main", order: "line" }))).toEqual(DOCS[0]!.lines.map((l) => `s1/main/${l.line}`));
    });

    it("a scan stopped part-way, and the count of the candidates after its last line", async () => {
      const all = newest(has("e"));
      expect(all.length).toBeGreaterThan(10);
      expect(await scan(query({ words: words("the") }), 3)).toEqual(newest(has("the")).slice(0, 3));
      for (const order of ["newest", "line"] as const) {
        let last: CandidateLine | null = null;
        let seen = 0;
        const q = query({ words: words("the"), order });
        await store.scanCandidates(q, (c) => {
          last = c;
          return ++seen < 4;
        });
        const total = newest(has("the")).length;
        expect(await store.countCandidatesAfter(q, last!)).toBe(total - 4);
        // Without words the count is exact under every filter.
        const f = query({ agents: ["claude-code"], order });
        let first: CandidateLine | null = null;
        await store.scanCandidates(f, (c) => {
          first = c;
          return false;
        });
        expect(await store.countCandidatesAfter(f, first!)).toBe(newest((s) => s !== "s2").length - 1);
      }
      // With words and one session named, the count keeps to that session's documents on the far side.
      const inS1 = query({ projects: ["alpha"], sessions: ["s1"], words: words("the") });
      let firstS1: CandidateLine | null = null;
      await store.scanCandidates(inS1, (c) => {
        firstS1 = c;
        return false;
      });
      expect(await store.countCandidatesAfter(inS1, firstS1!)).toBe(newest((s, d, l) => s === "s1" && has("the")(s, d, l)).length - 1);
    });

    it("a hit's session, turn and the line calling a persisted tool result", async () => {
      let hit: CandidateLine | undefined;
      await store.scanCandidates(query({ words: words("kubectl") }), (c) => {
        hit = c;
        return false;
      });
      expect(await store.hitSession(hit!.sessionId)).toEqual({ project_key: "alpha", session_ref: "s2", source_session_id: "sid-s2", first_user_message: "deploy the service", machine: "desktop" });
      expect(await store.turnAt(hit!.sessionId, 2)).toBe("s2-t1");
      expect(await store.turnAt(hit!.sessionId, 7)).toBeNull();
      expect(hit).toMatchObject({ line: 2, role: ROLE_CODES.indexOf("assistant"), time: Date.parse("2026-02-10T23:30:00.000Z"), kind: 0, name: "", projectKey: "alpha", source: "codex", recency: "2026-02-11T10:00:00.000Z" });
      expect(await store.callLine(hit!.sessionId, "call_1")).toBe(2);
      expect(await store.callLine(hit!.sessionId, "call_")).toBeNull();
    });

    it("list_sessions' q folds case as JavaScript does, non-ASCII letters too", async () => {
      const page = (q: string) => store.listSessions({ project_key: "alpha", q, sort: "session_ref", order: "asc", limit: 10, offset: 0 });
      expect((await page("über")).rows.map((r) => r.session_ref)).toEqual(["s1"]);
      expect((await page("ÜBER PARSER")).rows.map((r) => r.session_ref)).toEqual(["s1"]);
      expect((await page("CODEX")).rows.map((r) => r.session_ref)).toEqual(["s2"]);
      expect((await page("sid-s")).total).toBe(2);
      expect((await store.listSessions({ project_key: "alpha", machine: "desktop", sort: "started_at", order: "desc", limit: 10, offset: 0 })).rows.map((r) => r.session_ref)).toEqual(["s2"]);
    });

    it("coverage and the index stamp", async () => {
      expect(await store.fullTextCoverage({})).toEqual({ sessions_indexed: 0, sessions_total: 3 });
      const before = await store.indexStamp();
      const s3 = (await store.storedSessions("beta"))[0]!;
      await store.setFtsStamp(s3.id, "1:1");
      expect(await store.fullTextCoverage({ project_key: "beta" })).toEqual({ sessions_indexed: 1, sessions_total: 1 });
      expect(await store.fullTextCoverage({ machine: "laptop" })).toEqual({ sessions_indexed: 0, sessions_total: 1 });
      expect(await store.indexStamp()).toBe(before);
    });
  });
}
