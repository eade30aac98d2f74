/** Tests of `casefile token create|list|revoke` on a real PostgreSQL (issue 39). */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { openTeamDatabase } from "@/lib/team/database";
import { authenticateToken } from "@/lib/team/tokens";
import { describePostgres, freshTestDatabase } from "@/lib/testing/postgres";
import { teamDatabaseUrl } from "@/server/cli/token-command";

const run = promisify(execFile);
const TSX = path.resolve("node_modules/tsx/dist/cli.mjs");
const CLI = path.resolve("server/cli/main.ts");

/** Runs the CLI; resolves with its exit code and output (a non-zero exit is not a rejection). */
async function casefile(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const childEnv = { ...process.env, ...env };
  if (!("CASEFILE_DATABASE_URL" in env)) delete childEnv.CASEFILE_DATABASE_URL;
  try {
    const { stdout, stderr } = await run(process.execPath, [TSX, CLI, ...args], { env: childEnv, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("the team database URL", () => {
  it("takes --database, else CASEFILE_DATABASE_URL, else says how to give one", () => {
    expect(teamDatabaseUrl("postgres://a@h/d", { CASEFILE_DATABASE_URL: "postgres://b@h/d" })).toBe("postgres://a@h/d");
    expect(teamDatabaseUrl(undefined, { CASEFILE_DATABASE_URL: "postgres://b@h/d" })).toBe("postgres://b@h/d");
    expect(() => teamDatabaseUrl(undefined, {})).toThrow(/--database URL or set CASEFILE_DATABASE_URL/);
  });

  it("casefile token list without a database exits 2 with that message", async () => {
    const result = await casefile(["token", "list"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/invalid_input: no team database: give --database URL or set CASEFILE_DATABASE_URL/);
  }, 90_000);
});

describePostgres("casefile token", () => {
  let db: Awaited<ReturnType<typeof freshTestDatabase>>;
  beforeAll(async () => {
    db = await freshTestDatabase("cf_token_cli");
  });
  afterAll(async () => {
    await db?.drop();
  });

  it("creates (printed once, --json), lists without the text, and revokes a token", async () => {
    const created = await casefile(["token", "create", "--machine", "laptop-1", "--role", "push", "--json", "--database", db.url]);
    expect(created.code).toBe(0);
    const token = JSON.parse(created.stdout) as { token: string; machine: string; role: string; token_id: string };
    expect(token).toMatchObject({ machine: "laptop-1", role: "push", token: expect.stringMatching(/^cft_/) });
    const pool = await openTeamDatabase(db.url);
    expect(await authenticateToken(pool, token.token)).toMatchObject({ machine: "laptop-1", role: "push" });

    const listed = await casefile(["token", "list"], { CASEFILE_DATABASE_URL: db.url });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^${token.token_id} +laptop-1 +push `, "m"));
    expect(listed.stdout).not.toContain(token.token);

    const revoked = await casefile(["token", "revoke", token.token_id, "--database", db.url]);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toMatch(new RegExp(`^revoked ${token.token_id} \\(machine laptop-1, role push\\)`));
    expect(await authenticateToken(pool, token.token)).toBeNull();

    const bad = await casefile(["token", "create", "--machine", "laptop-1", "--role", "owner", "--database", db.url]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/'owner' is not a role/);
  }, 120_000);
});
