import { parseArgs } from "node:util";

import { resolveWorkspaceDir } from "@/lib/config";
import { AppError, isAppError, type ErrorCode } from "@/lib/errors";
import { AGENT_SOURCE_NAMES } from "@/lib/sources/common/agent-source";

// Each command's module is imported when that command runs (and the tool registry only for --help,
// `tool` and `mcp`): a `casefile push` or `token` does not load every tool, the catalog and their schemas.

const EXIT: Record<ErrorCode, number> = { invalid_input: 2, not_found: 3, conflict: 4, parse_error: 5, io_error: 1, internal: 1, unauthorized: 1, forbidden: 1 };

const USAGE = `casefile — forensics of AI coding-agent sessions

Usage:
  casefile prepare --workspace DIR [--claude PATH]... [--codex PATH]... [--gemini-cli|--copilot-cli|--opencode|--aider PATH]... [--exports DIR]... [--control-plane ROOT]... [--date YYYY-MM-DD --timezone TZ] [--force] [--json]
  casefile ledger verify ROOT [--json]         verify a Control Plane root's hash chains and Merkle roots (exit 1 when broken)
  casefile tool <tool_name> '<json input>' [--workspace DIR]
  casefile serve [--workspace DIR] [--port N] [--database URL [--host H (--tls-cert F --tls-key F | --insecure-http)]]
                                               with --database (or $CASEFILE_DATABASE_URL): a team server, every request needs a token
  casefile mcp [--workspace DIR]
  casefile push --server URL --token TOKEN [--watch] [--json] [prepare's source flags]   send this machine's sessions to a team server (docs/team.md)
  casefile start [--workspace DIR] [--port N]   sync the workspace from its sources, then serve
  casefile sources [--workspace DIR]                         list the sources the workspace syncs from
  casefile sources add (--claude PATH | --codex PATH | --gemini-cli PATH | --copilot-cli PATH | --opencode PATH | --aider PATH)... [--machine NAME] [--workspace DIR]
  casefile sources remove PATH [--workspace DIR]
  casefile audit verify [--workspace DIR] [--json]   prove the audit ledger intact (exit 0) or list its problems (exit 1)
  casefile audit anchor [--workspace DIR] [--json]   print the hash-chain head (last entry hash, count) to keep elsewhere
  casefile audit prune [--older-than 30d] [--workspace DIR] [--json]   remove old blobs (and past .casefile-config/retention.json's max_bytes); never ledger lines
  casefile audit tail [--workspace DIR] [--json]     follow new tool calls on the audit ledger
  casefile usage [daily|weekly|monthly|session|model|project|source|machine] [--since YYYY-MM-DD] [--until YYYY-MM-DD] [--project KEY] [--source claude-code|codex|gemini-cli|copilot-cli|opencode|aider] [--machine NAME] [--timezone TZ] [--json]
                                               tokens and cost in USD (get_usage), like ccusage's reports
  casefile token create --machine NAME --role read|push|admin [--database URL] [--json]   a team server's token, printed once
  casefile token list [--database URL] [--json]   |   casefile token revoke ID [--database URL]
                                               (team server, docs/team.md; without --database: $CASEFILE_DATABASE_URL)

Without --workspace: $CASEFILE_WORKSPACE, else ~/.casefile/workspace.
Without source flags: ~/.claude/projects, ~/.codex/{sessions,archived_sessions}, ~/.gemini, ~/.copilot/session-state and
~/.local/share/opencode, those that exist (Aider keeps no home folder: add each project with --aider PATH).`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      workspace: { type: "string" },
      claude: { type: "string", multiple: true },
      codex: { type: "string", multiple: true },
      "gemini-cli": { type: "string", multiple: true },
      "copilot-cli": { type: "string", multiple: true },
      opencode: { type: "string", multiple: true },
      aider: { type: "string", multiple: true },
      exports: { type: "string", multiple: true },
      "control-plane": { type: "string", multiple: true },
      date: { type: "string" },
      timezone: { type: "string" },
      force: { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      port: { type: "string" },
      "older-than": { type: "string" },
      since: { type: "string" },
      until: { type: "string" },
      project: { type: "string" },
      source: { type: "string" },
      verbose: { type: "boolean", default: false },
      server: { type: "string" },
      token: { type: "string" },
      watch: { type: "boolean", default: false },
      database: { type: "string" },
      host: { type: "string" },
      "tls-cert": { type: "string" },
      "tls-key": { type: "string" },
      "insecure-http": { type: "boolean", default: false },
      machine: { type: "string" },
      role: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n\n${await toolList()}\n`);
    return command || values.help ? 0 : 2;
  }
  const workspace = resolveWorkspaceDir(values.workspace);
  const agents = Object.fromEntries(AGENT_SOURCE_NAMES.filter((n) => values[n]?.length).map((n) => [n, values[n]!]));
  const port = parsePort(values.port);
  // The team database holds only the team server's catalog (serve hands it the URL; token reads it):
  // in a shell that exported CASEFILE_DATABASE_URL, every other command keeps to its workspace's SQLite (issue 39).
  if (command !== "serve" && command !== "token") delete process.env.CASEFILE_DATABASE_URL;
  switch (command) {
    case "prepare":
      return (await import("@/server/cli/prepare-command")).runPrepare({ workspace, claude: values.claude, codex: values.codex, agents, exports: values.exports, controlPlane: values["control-plane"], date: values.date, timezone: values.timezone, force: values.force, json: values.json });
    case "ledger":
      return (await import("@/server/cli/ledger-command")).runLedger(rest, values.json);
    case "tool":
      return (await import("@/server/cli/tool-command")).runTool(workspace, rest[0], rest[1]);
    case "serve":
      return (await import("@/server/cli/serve-command")).runServe(workspace, port, { database: values.database ?? (process.env.CASEFILE_DATABASE_URL?.trim() || undefined), host: values.host, tlsCert: values["tls-cert"], tlsKey: values["tls-key"], insecureHttp: values["insecure-http"] });
    case "sources":
      return (await import("@/server/cli/sources-command")).runSources(rest[0], rest[1], { workspace, claude: values.claude, codex: values.codex, agents, machine: values.machine, json: values.json });
    case "start":
      return (await import("@/server/cli/serve-command")).runStart(workspace, port);
    case "audit":
      return (await import("@/server/cli/audit-command")).runAudit(workspace, rest[0], values.json, { olderThan: values["older-than"] });
    case "usage":
      return (await import("@/server/cli/usage-command")).runUsage(workspace, rest[0], { since: values.since, until: values.until, project: values.project, source: values.source, machine: values.machine, timezone: values.timezone, json: values.json });
    case "token":
      return (await import("@/server/cli/token-command")).runToken(rest, { database: values.database, machine: values.machine, role: values.role, json: values.json });
    case "push":
      return (await import("@/server/cli/push-command")).runPush({ workspace, server: values.server, token: values.token, watch: values.watch, json: values.json, claude: values.claude, codex: values.codex, agents });
    case "mcp":
      await (await import("@/server/mcp/stdio")).runStdioMcp(workspace);
      return 0;
    default:
      throw new AppError("invalid_input", `unknown command '${command}'`, { hint: "run casefile --help" });
  }
}

/** The `Tools:` section of --help: every registered tool, one line each, from the registry. */
async function toolList(): Promise<string> {
  const { TOOLS } = await import("@/lib/tools/registry");
  const width = Math.max(...TOOLS.map((t) => t.name.length));
  const rows = TOOLS.map((t) => `  ${t.name.padEnd(width)}  ${t.readOnly ? "read-only" : "writes   "}  ${t.audience === "agent" ? "" : "(dashboard; not listed to MCP) "}${t.title}`);
  return `Tools (casefile tool <name> '<json>', POST /api/tools/<name>, MCP):\n${rows.join("\n")}`;
}

function parsePort(value: string | undefined): number {
  if (value === undefined) return Number(process.env.PORT ?? 3000);
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new AppError("invalid_input", `--port ${value} is not a TCP port`, { hint: "use a number from 1 to 65535" });
  return port;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const verbose = process.argv.includes("--verbose");
    const json = process.argv.includes("--json");
    if (isAppError(error)) {
      if (json) process.stdout.write(`${JSON.stringify({ ok: false, error: { code: error.code, message: error.message, ...error.details } })}\n`);
      process.stderr.write(`${error.code}: ${error.message}${error.details.hint ? `\nhint: ${error.details.hint}` : ""}\n`);
      process.exitCode = EXIT[error.code];
      return;
    }
    if (error instanceof TypeError && (error as NodeJS.ErrnoException).code?.startsWith("ERR_PARSE_ARGS")) {
      process.stderr.write(`invalid_input: ${error.message}\nhint: run casefile --help\n`);
      process.exitCode = 2;
      return;
    }
    process.stderr.write(`internal: ${error instanceof Error ? error.message : String(error)}\n`);
    if (verbose && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    process.exitCode = 1;
  },
);
