/**
 * The start-up process of `npm start` (`casefile start`), run by scripts/start.mjs with tsx:
 *
 *   node --import tsx server/cli/start-prepare.ts [--workspace DIR] [--port N]
 *
 * Runs {@link prepareStart}, sends the dashboard server's launch (script, arguments, environment)
 * to its parent over the IPC channel, and exits: its memory, tsx and esbuild go with it, and the
 * parent, plain Node, starts the server (issue 36 item 2). Exit codes as the CLI's.
 */
import { parseArgs } from "node:util";

import { resolveWorkspaceDir } from "@/lib/config";
import { AppError, isAppError, type ErrorCode } from "@/lib/errors";
import { prepareStart } from "@/server/cli/start-command";

/** The CLI's exit codes (server/cli/main.ts). */
const EXIT: Record<ErrorCode, number> = { invalid_input: 2, not_found: 3, conflict: 4, parse_error: 5, io_error: 1, internal: 1, unauthorized: 1, forbidden: 1 };

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { workspace: { type: "string" }, port: { type: "string" } } });
  const port = Number(values.port ?? process.env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new AppError("invalid_input", `--port ${values.port ?? process.env.PORT} is not a TCP port`, { hint: "use a number from 1 to 65535" });
  const launch = await prepareStart(resolveWorkspaceDir(values.workspace), port);
  if (typeof launch === "number") return launch;
  if (!process.send) throw new Error("start-prepare must be started with an IPC channel (scripts/start.mjs)");
  await new Promise<void>((resolve, reject) => process.send!(launch, (error: Error | null) => (error ? reject(error) : resolve())));
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(isAppError(error) ? `${error.code}: ${error.message}${error.details.hint ? `\nhint: ${error.details.hint}` : ""}\n` : `internal: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = isAppError(error) ? EXIT[error.code] : 1;
  },
).finally(() => process.disconnect?.());
