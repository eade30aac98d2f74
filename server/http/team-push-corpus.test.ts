/**
 * Issue 39's end-to-end: two simulated machines (two homes built from halves of ../shared/corpus)
 * push to one team server's workspace; its project and session lists, search totals and usage
 * equal those of a local workspace prepared from the union (compared without `machine`).
 */
import fs from "node:fs/promises";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { fillFullText } from "@/lib/catalog/full-text-index";
import { createCoreContext, type CoreContext } from "@/lib/context";
import { WorkspacePipeline } from "@/lib/pipeline/pipeline";
import { pushOnce, type PushSource } from "@/lib/team/push/push-client";
import { openTeamDatabase } from "@/lib/team/database";
import { authenticateToken, createToken, type TeamActor } from "@/lib/team/tokens";
import { HAS_POSTGRES, postgresSuiteName, freshTestDatabase } from "@/lib/testing/postgres";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { callTool } from "@/lib/tools/registry";
import type { WorkspaceSources } from "@/lib/workspace/sources";
import { startTeamTestServer, type TeamTestServer } from "@/server/http/team-test-server";

const CORPUS = path.join(SHARED_DIR, "corpus");
const TOKENS: Record<string, TeamActor> = { "tok-alpha": { token_id: "t1", machine: "alpha", role: "push" }, "tok-beta": { token_id: "t2", machine: "beta", role: "push" } };

/** A machine's home: its half of the corpus copied where each agent writes, and the roots a push (and the local union) reads. */
async function buildHome(base: string, name: string, parts: { claude: string[]; codex: string[]; agents: boolean }): Promise<PushSource[]> {
  const home = path.join(base, name);
  const claude = path.join(home, ".claude", "projects");
  const codex = path.join(home, ".codex", "sessions");
  for (const p of parts.claude) await fs.cp(path.join(CORPUS, "claude-code", p), path.join(claude, p), { recursive: true });
  for (const p of parts.codex) await fs.cp(path.join(CORPUS, "codex", p), path.join(codex, p), { recursive: true });
  const sources: PushSource[] = [{ kind: "claude", path: claude }, { kind: "codex", path: codex }];
  if (parts.agents) {
    await fs.cp(path.join(CORPUS, "agents-home"), home, { recursive: true });
    sources.push(
      { kind: "gemini-cli", path: path.join(home, ".gemini") },
      { kind: "copilot-cli", path: path.join(home, ".copilot", "session-state") },
      { kind: "opencode", path: path.join(home, ".local", "share", "opencode") },
      { kind: "aider", path: path.join(home, "src", "myrepo") },
    );
  }
  return sources;
}

async function prepared(ctx: CoreContext, sources?: WorkspaceSources): Promise<void> {
  await new WorkspacePipeline(ctx, { warm: "skip", retryMs: 0 }).request(sources ? { sources } : {});
  await fillFullText(ctx);
}

/** A tool's result through the CLI door, `machine` (and a list's `machines`) removed wherever they appear. */
async function answer(ctx: CoreContext, tool: string, input: object): Promise<unknown> {
  const result = await callTool(ctx, tool, input, { door: "cli" });
  return JSON.parse(JSON.stringify(result, (key, value: unknown) => (key === "machine" || key === "machines" ? undefined : value)));
}

/** The team server's side of a case: how tokens are checked, and the catalog's database (null: its SQLite). */
type TeamSide = { tokens(): Promise<{ authenticate: (token: string) => Promise<TeamActor | null>; alpha: string; beta: string }>; catalogUrl: string | null; catalogSessions?: () => Promise<number> };

/**
 * Runs `fn` with the team workspace's catalog on `url` (CASEFILE_DATABASE_URL, read per use by
 * lib/catalog/catalog-store), the local workspace's staying on SQLite; the test's steps run one at a time.
 */
async function onCatalog<T>(url: string | null, fn: () => Promise<T>): Promise<T> {
  const before = process.env.CASEFILE_DATABASE_URL;
  if (url === null) delete process.env.CASEFILE_DATABASE_URL;
  else process.env.CASEFILE_DATABASE_URL = url;
  try {
    return await fn();
  } finally {
    if (before === undefined) delete process.env.CASEFILE_DATABASE_URL;
    else process.env.CASEFILE_DATABASE_URL = before;
  }
}

function corpusCase(title: string, side: () => Promise<TeamSide>, skip: boolean): void {
  describe.skipIf(skip)(title, { timeout: 300_000 }, () => {
    let server: TeamTestServer;
    let team: CoreContext;
    let local: CoreContext;
    let onTeam: <T>(fn: () => Promise<T>) => Promise<T>;
    const machines: Record<string, PushSource[]> = {};

    beforeAll(async () => {
      const homes = await makeTempDir("push-homes-");
      const claudeParts = (await fs.readdir(path.join(CORPUS, "claude-code"))).sort();
      const codexParts = (await fs.readdir(path.join(CORPUS, "codex"))).sort();
      const half = <T>(list: T[], first: boolean) => list.filter((_, i) => (i % 2 === 0) === first);
      const alpha = await buildHome(homes, "alpha", { claude: half(claudeParts, true), codex: half(codexParts, true), agents: false });
      const beta = await buildHome(homes, "beta", { claude: half(claudeParts, false), codex: half(codexParts, false), agents: true });
      const { catalogUrl, tokens, catalogSessions } = await side();
      const { authenticate, alpha: alphaToken, beta: betaToken } = await tokens();
      Object.assign(machines, { [alphaToken]: alpha, [betaToken]: beta });
      onTeam = (fn) => onCatalog(catalogUrl, fn);

      team = createCoreContext(await makeTempDir("team-ws-"));
      server = await startTeamTestServer(team.workspaceRoot, { authenticate });
      const a = await pushOnce(alpha, { server: server.url, token: alphaToken });
      const b = await pushOnce(beta, { server: server.url, token: betaToken });
      expect([...a.errors, ...b.errors]).toEqual([]);
      expect(a.sessions_sent).toBeGreaterThan(0);
      expect(b.sessions_sent).toBeGreaterThan(0);
      await onTeam(() => prepared(team));
      // On PostgreSQL, the team's sessions are that database's rows.
      if (catalogSessions) expect(await catalogSessions()).toBeGreaterThan(10);

      const union = [...alpha, ...beta];
      const rootsOf = (kind: PushSource["kind"]) => union.filter((s) => s.kind === kind).map((s) => s.path);
      local = createCoreContext(await makeTempDir("local-ws-"));
      await onCatalog(null, () => prepared(local, {
        claude: rootsOf("claude"),
        codex: rootsOf("codex"),
        agents: { "gemini-cli": rootsOf("gemini-cli"), "copilot-cli": rootsOf("copilot-cli"), opencode: rootsOf("opencode"), aider: rootsOf("aider") },
        demo: false,
      }));
    });
    afterAll(async () => {
      await server?.close();
    });

    it("lists the same projects and sessions", async () => {
      const projects = (await onCatalog(null, () => answer(local, "list_projects", {}))) as { projects: { project_key: string }[] };
      expect(projects.projects.length).toBeGreaterThan(5);
      expect(await onTeam(() => answer(team, "list_projects", {}))).toEqual(projects);
      for (const { project_key } of projects.projects) {
        const input = { project_key, limit: 200 };
        expect(await onTeam(() => answer(team, "list_sessions", input))).toEqual(await onCatalog(null, () => answer(local, "list_sessions", input)));
      }
    });

    it("finds the same search totals and counts the same usage", async () => {
      for (const query of ["the", "error", "Read", "agent:codex test", '"tool_use"', "agent:gemini-cli OR agent:aider"]) {
        const input = { query, limit: 5 };
        const mine = (await onCatalog(null, () => answer(local, "search_sessions", input))) as { total: number };
        const theirs = (await onTeam(() => answer(team, "search_sessions", input))) as { total: number };
        expect({ query, total: theirs.total }).toEqual({ query, total: mine.total });
      }
      for (const group_by of ["project", "model", "day", "source", "session"]) {
        expect(await onTeam(() => answer(team, "get_usage", { group_by }))).toEqual(await onCatalog(null, () => answer(local, "get_usage", { group_by })));
      }
    });

    it("a re-push of both machines sends 0 bytes", async () => {
      for (const [token, sources] of Object.entries(machines)) {
        const again = await pushOnce(sources, { server: server.url, token });
        expect(again).toMatchObject({ sessions_sent: 0, bytes_sent: 0, errors: [] });
        expect(again.sessions_unchanged).toBeGreaterThan(0);
      }
    });
  });
}

const SHARED_NOTE = HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`;

corpusCase(`two machines push halves of the corpus to one team server${SHARED_NOTE}`, async () => ({ catalogUrl: null, tokens: async () => ({ authenticate: async (token) => TOKENS[token] ?? null, alpha: "tok-alpha", beta: "tok-beta" }) }), !HAS_SHARED);

// The end-to-end on a real PostgreSQL: tokens from the database, the team server's catalog in it, the local one in SQLite.
const PG_TITLE = postgresSuiteName(`two machines push halves of the corpus to a team server on PostgreSQL${SHARED_NOTE}`);
let db: Awaited<ReturnType<typeof freshTestDatabase>> | null = null;
afterAll(async () => {
  await db?.drop();
});
corpusCase(
  PG_TITLE,
  async () => {
    db = await freshTestDatabase("cf_push_e2e");
    const url = db.url;
    return {
      catalogUrl: url,
      catalogSessions: async () => Number((await (await openTeamDatabase(url)).query<{ n: string }>("SELECT count(*) AS n FROM catalog_sessions")).rows[0]!.n),
      tokens: async () => {
        const pool = await openTeamDatabase(url);
        const alpha = await createToken(pool, { machine: "alpha", role: "push" });
        const beta = await createToken(pool, { machine: "beta", role: "push" });
        return { authenticate: (token) => authenticateToken(pool, token), alpha: alpha.token, beta: beta.token };
      },
    };
  },
  !HAS_SHARED || !HAS_POSTGRES,
);
