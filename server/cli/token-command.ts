import { closePostgres, describeUrl } from "@/lib/catalog/postgres/database";
import { AppError } from "@/lib/errors";
import { openTeamDatabase } from "@/lib/team/database";
import { createToken, listTokens, revokeToken, type TeamToken } from "@/lib/team/tokens";

/**
 * The team database a command uses: `--database URL`, else `CASEFILE_DATABASE_URL`.
 * @throws AppError invalid_input when neither is set.
 */
export function teamDatabaseUrl(flag: string | undefined, env: Readonly<Record<string, string | undefined>> = process.env): string {
  const url = flag?.trim() || env.CASEFILE_DATABASE_URL?.trim();
  if (!url) {
    throw new AppError("invalid_input", "no team database: give --database URL or set CASEFILE_DATABASE_URL", {
      hint: "e.g. --database postgres://casefile@127.0.0.1:5432/casefile (docs/team.md)",
    });
  }
  return url;
}

/**
 * `casefile token create --machine NAME --role read|push|admin [--json]`: makes a token and prints
 * it once (`--json`: `{"token","machine","role","token_id"}`); `casefile token list [--json]`: every
 * token, never its text; `casefile token revoke ID`. Against the database of {@link teamDatabaseUrl}
 * (its team schema migrated first). Issue 39.
 * @throws AppError invalid_input for an unknown subcommand or missing flag; not_found for an unknown id.
 */
export async function runToken(
  args: string[],
  options: { database?: string; machine?: string; role?: string; json: boolean },
): Promise<number> {
  const [sub, id] = args;
  if (sub !== "create" && sub !== "list" && sub !== "revoke") {
    throw new AppError("invalid_input", "usage: casefile token create --machine NAME --role read|push|admin | token list | token revoke ID", { hint: "run casefile --help" });
  }
  const url = teamDatabaseUrl(options.database);
  const db = await openTeamDatabase(url);
  try {
    if (sub === "create") {
      if (!options.machine || !options.role) throw new AppError("invalid_input", "token create needs --machine NAME and --role read|push|admin", { hint: "casefile token create --machine laptop-1 --role push" });
      const created = await createToken(db, { machine: options.machine, role: options.role });
      if (options.json) process.stdout.write(`${JSON.stringify({ token: created.token, machine: created.machine, role: created.role, token_id: created.token_id })}\n`);
      else {
        process.stdout.write(`${created.token}\n`);
        process.stderr.write(`token ${created.token_id} for machine ${created.machine}, role ${created.role}, on ${describeUrl(url)}: shown this once, keep it now\n`);
      }
      return 0;
    }
    if (sub === "list") {
      const tokens = await listTokens(db);
      process.stdout.write(options.json ? `${JSON.stringify(tokens)}\n` : renderTokens(tokens));
      return 0;
    }
    if (!id) throw new AppError("invalid_input", "token revoke needs the token's id", { hint: "casefile token list shows the ids" });
    const revoked = await revokeToken(db, id);
    process.stdout.write(options.json ? `${JSON.stringify(revoked)}\n` : `revoked ${revoked.token_id} (machine ${revoked.machine}, role ${revoked.role}) at ${revoked.revoked_at}\n`);
    return 0;
  } finally {
    await closePostgres(url);
  }
}

/** One line per token: id, machine, role, created, last used, revoked. */
function renderTokens(tokens: TeamToken[]): string {
  if (tokens.length === 0) return "no tokens yet: casefile token create --machine NAME --role read|push|admin\n";
  const width = Math.max(7, ...tokens.map((t) => t.machine.length));
  const lines = [`${"ID".padEnd(16)}  ${"MACHINE".padEnd(width)}  ROLE   CREATED                   LAST USED                 REVOKED`];
  for (const t of tokens) {
    lines.push(`${t.token_id.padEnd(16)}  ${t.machine.padEnd(width)}  ${t.role.padEnd(5)}  ${t.created_at.padEnd(24)}  ${(t.last_used_at ?? "-").padEnd(24)}  ${t.revoked_at ?? "-"}`);
  }
  return `${lines.join("\n")}\n`;
}
