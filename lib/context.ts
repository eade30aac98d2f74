import path from "node:path";

/** Where log lines go. The MCP stdio entry points this at stderr: stdout is the protocol. */
export type Logger = {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
};

/**
 * Everything a core use-case needs from the outside world. Tests build one per temp dir.
 * `workspaceRoot` is absolute; `now` is injectable for deterministic `prepared_at`.
 */
export type CoreContext = {
  workspaceRoot: string;
  now: () => Date;
  log: Logger;
};

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };

export const stderrLogger: Logger = {
  info: (m) => process.stderr.write(`${m}\n`),
  warn: (m) => process.stderr.write(`warning: ${m}\n`),
  error: (m) => process.stderr.write(`error: ${m}\n`),
};

/** Builds a context; the workspace path is resolved to an absolute path. */
export function createCoreContext(workspaceRoot: string, deps: Partial<Omit<CoreContext, "workspaceRoot">> = {}): CoreContext {
  return { workspaceRoot: path.resolve(workspaceRoot), now: deps.now ?? (() => new Date()), log: deps.log ?? silentLogger };
}
