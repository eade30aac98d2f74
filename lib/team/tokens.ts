/**
 * The team server's access tokens (issue 39): each names a machine and a role; the token text is
 * shown once at creation, the database keeps only its SHA-256 (table `team_tokens`, lib/team/migrations).
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

import type pg from "pg";
import { z } from "zod";

import { AppError } from "@/lib/errors";
import { checkMachineName } from "@/lib/workspace/machines";

/** What a token may do (lib/team/auth has the rules): read everything; push = read + push + evidence/work-item writes; admin = all. */
export const TEAM_ROLES = ["read", "push", "admin"] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];
export const teamRoleSchema = z.enum(TEAM_ROLES);

/** Who a request comes from: the token's id, machine and role. */
export type TeamActor = { token_id: string; machine: string; role: TeamRole };

/** A token as `token list` shows it: never its text or hash. Times are ISO 8601 (UTC). */
export type TeamToken = TeamActor & { created_at: string; last_used_at: string | null; revoked_at: string | null };

/** A new token: `token` is its text, shown this once. */
export type CreatedToken = TeamActor & { token: string };

/** Token text: `cft_` then 32 random bytes in base64url (43 characters). */
const TOKEN_TEXT = /^cft_[A-Za-z0-9_-]{43}$/;
/** A token's public id: `tok_` then 6 random bytes in hex. */
const TOKEN_ID = /^tok_[0-9a-f]{12}$/;

/** How often a token's `last_used_at` is refreshed at most: one write a minute per token, not one per request. */
const LAST_USED_STEP = "1 minute";

const sha256 = (text: string): Buffer => createHash("sha256").update(text, "utf8").digest();

/**
 * Makes a token for `machine` with `role` and returns its text (shown once; only its SHA-256 is stored).
 * @throws AppError invalid_input when the machine is not a machine name or the role is not one of {@link TEAM_ROLES}.
 */
export async function createToken(db: pg.Pool, input: { machine: string; role: string }): Promise<CreatedToken> {
  const machine = checkMachineName(input.machine.trim(), "machine");
  const role = teamRoleSchema.safeParse(input.role);
  if (!role.success) throw new AppError("invalid_input", `'${input.role}' is not a role`, { fieldErrors: { role: [`one of ${TEAM_ROLES.join(", ")}`] }, hint: "--role read|push|admin" });
  const token = `cft_${randomBytes(32).toString("base64url")}`;
  const token_id = `tok_${randomBytes(6).toString("hex")}`;
  await db.query("INSERT INTO team_tokens (token_id, machine, role, token_sha256) VALUES ($1, $2, $3, $4)", [token_id, machine, role.data, sha256(token)]);
  return { token, token_id, machine, role: role.data };
}

type TokenRow = { token_id: string; machine: string; role: TeamRole; created_at: Date; last_used_at: Date | null; revoked_at: Date | null };

const toToken = (row: TokenRow): TeamToken => ({
  token_id: row.token_id,
  machine: row.machine,
  role: row.role,
  created_at: row.created_at.toISOString(),
  last_used_at: row.last_used_at?.toISOString() ?? null,
  revoked_at: row.revoked_at?.toISOString() ?? null,
});

/** Every token, revoked ones too, oldest first. */
export async function listTokens(db: pg.Pool): Promise<TeamToken[]> {
  const { rows } = await db.query<TokenRow>(
    "SELECT token_id, machine, role, created_at, last_used_at, revoked_at FROM team_tokens ORDER BY created_at, token_id",
  );
  return rows.map(toToken);
}

/**
 * Revokes the token `tokenId`: from now on it authenticates nothing. Revoking a revoked token
 * changes nothing (its first `revoked_at` stays). Returns the token.
 * @throws AppError invalid_input when `tokenId` is not a token id; not_found when there is no such token.
 */
export async function revokeToken(db: pg.Pool, tokenId: string): Promise<TeamToken> {
  if (!TOKEN_ID.test(tokenId)) throw new AppError("invalid_input", `'${tokenId}' is not a token id`, { hint: "token ids look like tok_0123456789ab: see casefile token list" });
  const { rows } = await db.query<TokenRow>(
    `UPDATE team_tokens SET revoked_at = coalesce(revoked_at, now()) WHERE token_id = $1
     RETURNING token_id, machine, role, created_at, last_used_at, revoked_at`,
    [tokenId],
  );
  if (!rows[0]) throw new AppError("not_found", `no token ${tokenId}`, { hint: "see casefile token list" });
  return toToken(rows[0]);
}

/**
 * The actor a bearer token stands for, or null when it is malformed, unknown or revoked. The
 * stored hash is compared with `timingSafeEqual` (constant time); the lookup itself is by hash,
 * so its timing says nothing about the token text. Refreshes `last_used_at` at most once a minute.
 */
export async function authenticateToken(db: pg.Pool, bearer: string): Promise<TeamActor | null> {
  if (!TOKEN_TEXT.test(bearer)) return null;
  const hash = sha256(bearer);
  const { rows } = await db.query<{ token_id: string; machine: string; role: TeamRole; token_sha256: Buffer; revoked: boolean }>(
    "SELECT token_id, machine, role, token_sha256, revoked_at IS NOT NULL AS revoked FROM team_tokens WHERE token_sha256 = $1",
    [hash],
  );
  const row = rows[0];
  if (!row || row.token_sha256.length !== hash.length || !timingSafeEqual(row.token_sha256, hash) || row.revoked) return null;
  await db.query(
    `UPDATE team_tokens SET last_used_at = now() WHERE token_id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '${LAST_USED_STEP}')`,
    [row.token_id],
  );
  return { token_id: row.token_id, machine: row.machine, role: row.role };
}
