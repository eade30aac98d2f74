/** The core context every tool runs with: workspace root, clock, logger, door and call trace. */
import { AsyncLocalStorage } from "node:async_hooks";
import path from "node:path";

import { processWide } from "@/lib/cache/process-wide";

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
  /** Set by the tool registry for the duration of one tool call (the audit ledger, seed 002). */
  trace?: CallTrace;
  /**
   * True in a process that ends after its call (`casefile tool`): work a result would leave
   * running in the background, for a later call to find, is waited for instead (it cannot ask
   * again, and the process would wait for that work before exiting anyway). Results then differ
   * only as a later call's would.
   */
  oneShot?: boolean;
};

/** Where a tool call came in: the MCP server, `POST /api/tools`, the CLI, or the dashboard itself. */
export type Door = "mcp" | "http" | "cli" | "ui";

/**
 * Who is calling: the door, and where known the client (MCP client name, `ui`). `decisions` are
 * the rules the door itself evaluated before the call (HTTP: the Host and Origin checks).
 * `actor`: on a team server, the token's machine and role (issue 39); the audit ledger records it.
 */
export type CallInfo = { door: Door; client?: string; decisions?: PolicyDecision[]; actor?: CallActor };

/** A team server's caller (issue 39): the machine and role of the token the request carried (lib/team/tokens). */
export type CallActor = { machine: string; role: "read" | "push" | "admin" };

/** The actor of the request being handled, shared by every bundle copy of this module (Next loads lib/ once per layer). */
const actorStorage = () => processWide("request-actor", () => new AsyncLocalStorage<CallActor>());

/**
 * Runs `fn` as one request of `actor`: every tool call made while it runs, whatever door or
 * server action makes it, is that actor's ({@link requestActor}). The team server's HTTP server
 * (server/serve/dashboard-server) wraps each authenticated request in it.
 */
export function runAsActor<T>(actor: CallActor, fn: () => T): T {
  return actorStorage().run(actor, fn);
}

/**
 * The rule a team server's role puts on a tool call (issue 39; lib/team/auth has the rules on
 * requests): `read` may call read-only tools only; `push` and `admin` may call every tool (the
 * writing tools write evidence and work items, which a machine's agents write through MCP).
 */
export function actorDecision(actor: CallActor, readOnly: boolean): PolicyDecision {
  const who = `machine ${actor.machine}, role ${actor.role}`;
  if (actor.role === "read" && !readOnly) return { rule: "team.role", decision: "deny", detail: `${who}: a read token may call read-only tools only` };
  return { rule: "team.role", decision: "allow", detail: who };
}

/** The actor of the request this code runs for ({@link runAsActor}), or undefined outside one (local mode, the CLI, MCP stdio). */
export function requestActor(): CallActor | undefined {
  return actorStorage().getStore();
}

/** One policy rule evaluated during a call, with its decision (seed 002 `policy_decisions`). */
export type PolicyDecision = { rule: string; decision: "allow" | "deny"; detail?: string };

/**
 * The recorder of one tool call: core code reports each policy rule it evaluates and each
 * workspace-relative file it writes, so the ledger can prove what was allowed and what changed.
 */
export type CallTrace = {
  call: CallInfo;
  policy(rule: string, decision: PolicyDecision["decision"], detail?: string): void;
  artifact(workspaceRelativePath: string): void;
  /**
   * Declares the call's output a pure function of its input and bytes `[start, end)` of the file
   * at `path` (absolute), so the ledger may store that reference instead of a large output
   * (issue 26). A call that reports more than one source is stored whole.
   */
  source?(range: { path: string; start: number; end: number }): void;
};

/**
 * Records one validation stage of a call on its trace as the rule `validation.<stage>` (seed 002:
 * "every policy rule that was evaluated"): allow when `errors` is empty, else deny naming the
 * failing fields (`path` or `field` of each error). Returns `errors`, so a caller can write
 * `if (traceStage(trace, "stage_a", errors).length > 0) return invalid(errors)`. No trace: no-op.
 */
export function traceStage<E extends { path?: string; field?: string }>(trace: CallTrace | undefined, stage: string, errors: readonly E[]): readonly E[] {
  const fields = [...new Set(errors.map((e) => e.path ?? e.field ?? "input"))];
  trace?.policy(`validation.${stage}`, errors.length === 0 ? "allow" : "deny", fields.length > 0 ? fields.join(", ") : undefined);
  return errors;
}

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };

export const stderrLogger: Logger = {
  info: (m) => process.stderr.write(`${m}\n`),
  warn: (m) => process.stderr.write(`warning: ${m}\n`),
  error: (m) => process.stderr.write(`error: ${m}\n`),
};

/** Builds a context; the workspace path is resolved to an absolute path. */
export function createCoreContext(workspaceRoot: string, deps: Partial<Omit<CoreContext, "workspaceRoot">> = {}): CoreContext {
  return { workspaceRoot: path.resolve(workspaceRoot), now: deps.now ?? (() => new Date()), log: deps.log ?? silentLogger, ...(deps.oneShot ? { oneShot: true } : {}) };
}
