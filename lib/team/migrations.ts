/**
 * The team server's own PostgreSQL schema (issue 39), as the append-only migrations of component
 * "team" (lib/catalog/postgres/database's `runMigrations`): tokens, and what machines pushed.
 * Never edit a shipped migration: add the next one.
 */
import type { Migration } from "@/lib/catalog/postgres/database";

/**
 * Version 1: the access tokens (lib/team/tokens). Only a token's SHA-256 is kept; `token_id` is
 * the public handle `token list` shows and `token revoke` takes. A revoked token keeps its row
 * (`revoked_at`), so the audit ledger's actors stay explainable.
 */
const TEAM_TOKENS = `
CREATE TABLE team_tokens (
  token_id text PRIMARY KEY,
  machine text NOT NULL,
  role text NOT NULL CHECK (role IN ('read', 'push', 'admin')),
  token_sha256 bytea NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
`;

/** Component "team"'s migrations, in order. */
export const TEAM_MIGRATIONS: readonly Migration[] = [{ version: 1, name: "team_tokens", sql: TEAM_TOKENS }];
