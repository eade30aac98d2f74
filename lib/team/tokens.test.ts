/** Tests of the team server's tokens on a real PostgreSQL (issue 39). */
import { createHash } from "node:crypto";

import type pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";

import { openTeamDatabase } from "@/lib/team/database";
import { authenticateToken, createToken, listTokens, revokeToken } from "@/lib/team/tokens";
import { describePostgres, freshTestDatabase } from "@/lib/testing/postgres";

describePostgres("team tokens", () => {
  let db: Awaited<ReturnType<typeof freshTestDatabase>>;
  let pool: pg.Pool;
  beforeAll(async () => {
    db = await freshTestDatabase("cf_tokens_test");
    pool = await openTeamDatabase(db.url);
  });
  afterAll(async () => {
    await db?.drop();
  });

  it("creates a cft_ token of 32 random bytes, stores only its SHA-256, and authenticates it", async () => {
    const created = await createToken(pool, { machine: "laptop-1", role: "push" });
    expect(created.token).toMatch(/^cft_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(created.token.slice(4), "base64url")).toHaveLength(32);
    expect(created).toMatchObject({ machine: "laptop-1", role: "push", token_id: expect.stringMatching(/^tok_[0-9a-f]{12}$/) });
    const stored = await pool.query("SELECT * FROM team_tokens WHERE token_id = $1", [created.token_id]);
    const row = stored.rows[0] as Record<string, unknown>;
    expect(JSON.stringify(row)).not.toContain(created.token.slice(4));
    expect((row.token_sha256 as Buffer).equals(createHash("sha256").update(created.token).digest())).toBe(true);
    expect(await authenticateToken(pool, created.token)).toEqual({ token_id: created.token_id, machine: "laptop-1", role: "push" });
  });

  it("refuses a wrong, malformed or revoked token, and keeps the revoked one listed", async () => {
    const created = await createToken(pool, { machine: "ci", role: "read" });
    const wrong = `cft_${"A".repeat(43)}`;
    expect(await authenticateToken(pool, wrong)).toBeNull();
    expect(await authenticateToken(pool, created.token.slice(0, -1))).toBeNull();
    expect(await authenticateToken(pool, `${created.token}x`)).toBeNull();
    expect(await authenticateToken(pool, "")).toBeNull();
    const revoked = await revokeToken(pool, created.token_id);
    expect(revoked.revoked_at).not.toBeNull();
    expect(await authenticateToken(pool, created.token)).toBeNull();
    // Revoking again keeps the first time.
    expect((await revokeToken(pool, created.token_id)).revoked_at).toBe(revoked.revoked_at);
    const listed = await listTokens(pool);
    expect(listed.find((t) => t.token_id === created.token_id)).toMatchObject({ machine: "ci", role: "read", revoked_at: revoked.revoked_at });
    expect(JSON.stringify(listed)).not.toMatch(/cft_|sha256/);
  });

  it("records when a token was last used", async () => {
    const created = await createToken(pool, { machine: "box", role: "admin" });
    expect((await listTokens(pool)).find((t) => t.token_id === created.token_id)?.last_used_at).toBeNull();
    await authenticateToken(pool, created.token);
    expect((await listTokens(pool)).find((t) => t.token_id === created.token_id)?.last_used_at).not.toBeNull();
  });

  it("refuses a bad machine name, an unknown role and an unknown or malformed token id", async () => {
    await expect(createToken(pool, { machine: "../etc", role: "push" })).rejects.toMatchObject({ code: "invalid_input" });
    await expect(createToken(pool, { machine: "m1", role: "owner" })).rejects.toMatchObject({ code: "invalid_input" });
    await expect(revokeToken(pool, "tok_000000000000")).rejects.toMatchObject({ code: "not_found" });
    await expect(revokeToken(pool, "nonsense")).rejects.toMatchObject({ code: "invalid_input" });
  });
});
