/** Every registered tool call traced in the audit ledger: started and finished entries with hashes. */
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";

import { actorDecision, type CallInfo, type CallTrace, type CoreContext, type PolicyDecision, requestActor } from "@/lib/context";
import { AppError, isAppError } from "@/lib/errors";
import { persistBlob, type SourceRange } from "@/lib/ledger/blobs";
import { getLedger } from "@/lib/ledger/ledger-store";
import type { LedgerPaths } from "@/lib/ledger/paths";
import { processIdentity } from "@/lib/ledger/process-identity";
import { openLedger } from "@/lib/ledger/reconcile";
import { pruneBlobs, readRetention } from "@/lib/ledger/retention";
import { type CallResult, type LedgerDecision, LEDGER_SCHEMA_VERSION, type Scope } from "@/lib/ledger/schema";

/** What the registry knows about a call before it runs. */
export type CallMeta = { toolName: string; readOnly: boolean; input: unknown; call: CallInfo };

/** The value a call came to, as the ledger records it: the tool result or the registry's rejection. */
export type CallOutput = { status: string } & Record<string, unknown>;

/**
 * Tools whose dashboard calls are not recorded: the Audit page re-reads the ledger on every
 * append, so recording its own reads would make it feed itself forever; and the reads every open
 * page repeats on a timer or on every page (the demo badge, the Control Plane routing lookup, the
 * home overview, workspace status and synthesis polls), which would bury the calls that did
 * something. The same tools called through MCP, HTTP or the CLI are recorded like any other call.
 */
const UNRECORDED_UI_TOOLS = new Set(["query_ledger_full", "inspect_ledger_task", "get_chain_authors", "is_demo_workspace", "get_control_plane_project", "get_workspace_overview", "get_synthesis_state", "workspace_status"]);

/** `project_key/session_ref`, the project alone, or `workspace`: what a call works on (issue 8). */
export function taskIdOf(input: unknown): string {
  if (!input || typeof input !== "object") return "workspace";
  const { project_key: p, session_ref: s } = input as Record<string, unknown>;
  if (typeof p !== "string" || p === "") return "workspace";
  return typeof s === "string" && s !== "" ? `${p}/${s}` : p;
}

/**
 * Runs one tool call on the record (seed 002): stores the input blob, appends `tool_call_started`,
 * runs `run` with a context whose `trace` collects policy decisions and written files, stores the
 * output blob and appends `tool_call_finished` (success, failure or denied, with duration, output
 * hash, every decision and artifacts). A thrown error is recorded and rethrown. Like the
 * reference, a ledger that cannot be written does not stop the tool: the failure is logged.
 * On a team server the call's actor (its `call.actor`, else the request's: lib/context
 * `requestActor`) is recorded with it, and a role that may not make the call (`actorDecision`)
 * is refused: recorded as `denied`, `run` not called (issue 39).
 * @throws AppError forbidden when the actor's role may not call the tool; whatever `run` throws.
 */
export async function traceToolCall<T>(ctx: CoreContext, meta: CallMeta, run: (ctx: CoreContext) => Promise<T>, outputOf: (value: T) => CallOutput): Promise<T> {
  const actor = meta.call.actor ?? requestActor();
  const call: CallInfo = actor ? { ...meta.call, actor } : meta.call;
  const roleDecision = actor ? actorDecision(actor, meta.readOnly) : null;
  if (call.door === "ui" && UNRECORDED_UI_TOOLS.has(meta.toolName) && roleDecision?.decision !== "deny") return run(ctx);
  const ledger = getLedger(ctx.workspaceRoot);
  const started = performance.now();
  const receiptId = randomUUID();
  const door = roleDecision ? [...doorDecisions(call), roleDecision] : doorDecisions(call);
  // A call the door refused never reaches the read-only rule: only the door's decisions are on record.
  const decisions: PolicyDecision[] = door.some((d) => d.decision === "deny") ? door : [...door, readOnlyDecision(meta.readOnly)];
  const artifacts: string[] = [];
  const sources: SourceRange[] = [];
  const trace: CallTrace = {
    call,
    policy: (rule, decision, detail) => decisions.push({ rule, decision, detail }),
    artifact: (p) => void (artifacts.includes(p) || artifacts.push(p)),
    source: (range) => void sources.push(range),
  };
  let recording = await tolerate(ctx, async () => {
    await openLedger(ledger);
    const blob = await persistBlob(ledger.paths, meta.input ?? null);
    const taskId = taskIdOf(meta.input);
    await ledger.append([
      {
        schema_version: LEDGER_SCHEMA_VERSION,
        kind: "tool_call_started",
        receipt_id: receiptId,
        task_id: taskId,
        tool_name: meta.toolName,
        door: call.door,
        ...(call.client ? { client: call.client } : {}),
        ...(actor ? { actor: { machine: actor.machine, role: actor.role } } : {}),
        timestamp: ctx.now().toISOString(),
        input_hash: blob.hash,
        input_ref: blob.ref,
        scope_enforced: scopeOf(taskId, meta.readOnly),
        ...processIdentity(),
      },
    ]);
  });
  const finish = async (output: unknown, result: CallResult, status: string, error?: { code: string; message: string }) => {
    if (!recording) return;
    recording = await tolerate(ctx, async () => {
      // A successful read of one source may be stored as a reference to its bytes (issue 26).
      const blob = await persistBlob(ledger.paths, output, { compress: true, source: result === "success" && sources.length === 1 ? sources[0] : undefined });
      await ledger.append([
        {
          schema_version: LEDGER_SCHEMA_VERSION,
          kind: "tool_call_finished",
          receipt_id: receiptId,
          timestamp: ctx.now().toISOString(),
          result,
          duration_ms: Math.max(0, Math.round(performance.now() - started)),
          status,
          ...(error ? { error } : {}),
          output_hash: blob.hash,
          output_ref: blob.ref,
          policy_decisions: decisions.map(toLedgerDecision),
          artifacts_written: artifacts,
        },
      ]);
    });
  };
  if (roleDecision?.decision === "deny") {
    const payload = { code: "forbidden", message: roleDecision.detail ?? "this token's role may not call this tool" };
    await finish({ error: payload }, "denied", payload.code, payload);
    throw new AppError("forbidden", payload.message, { hint: "use a push or admin token to write" });
  }
  let value: T;
  try {
    value = await run({ ...ctx, trace });
  } catch (error) {
    const payload = isAppError(error) ? { code: error.code, message: error.message } : { code: "internal", message: error instanceof Error ? error.message : String(error) };
    await finish({ error: payload }, decisions.some(isPolicyDeny) ? "denied" : "failure", payload.code, payload);
    throw error;
  }
  const output = outputOf(value);
  if (output.status === "invalid") decisions.push({ rule: "tool.validation", decision: "deny", detail: errorFields(output) });
  else if (!meta.readOnly && output.status !== "conflict" && output.status !== "denied") decisions.push({ rule: "tool.validation", decision: "allow" });
  const result: CallResult = decisions.some(isPolicyDeny) ? "denied" : output.status === "invalid" || output.status === "conflict" ? "failure" : "success";
  await finish(output, result, output.status);
  if (recording) enforceRetentionSometimes(ctx, ledger.paths);
  return value;
}

/** Calls recorded by this process between two checks of the retention cap. */
const RETENTION_EVERY_CALLS = 100;
let callsSinceRetention = RETENTION_EVERY_CALLS - 1;

/**
 * Every {@link RETENTION_EVERY_CALLS} recorded calls (the first included), applies the
 * workspace's `max_bytes` cap (lib/ledger/retention) in the background; a failure is logged.
 */
function enforceRetentionSometimes(ctx: CoreContext, paths: LedgerPaths): void {
  callsSinceRetention += 1;
  if (callsSinceRetention < RETENTION_EVERY_CALLS) return;
  callsSinceRetention = 0;
  void (async () => {
    const retention = await readRetention(paths);
    if (retention.max_bytes !== undefined) await pruneBlobs(paths, { maxBytes: retention.max_bytes });
  })().catch((error: unknown) => ctx.log.warn(`audit ledger: retention: ${error instanceof Error ? error.message : String(error)}`));
}

/** Rules whose denial is a refusal by policy (result `denied`) rather than bad input (`failure`). */
const isPolicyDeny = (d: PolicyDecision): boolean => d.decision === "deny" && !d.rule.startsWith("input.") && !d.rule.startsWith("validation.") && !d.rule.startsWith("tool.validation");

function doorDecisions(call: CallInfo): PolicyDecision[] {
  if (call.decisions?.length) return call.decisions;
  const detail = { mcp: "stdio MCP client: a local process", cli: "command line: a local process", http: "HTTP door", ui: "dashboard: the server's own call" }[call.door];
  return [{ rule: `door.${call.door}`, decision: "allow", detail: call.client ? `${detail} (${call.client})` : detail }];
}

const readOnlyDecision = (readOnly: boolean): PolicyDecision =>
  readOnly ? { rule: "tool.read_only", decision: "allow", detail: "read-only tool: approved without review" } : { rule: "tool.read_only", decision: "allow", detail: "write tool: allowed to write its own file under the task's project" };

function scopeOf(taskId: string, readOnly: boolean): Scope[] {
  const project = taskId === "workspace" ? null : taskId.split("/")[0]!;
  const scopes: Scope[] = [{ type: "path", pattern: project ? `projects/${project}/**` : "**", access: "read" }];
  if (!readOnly && project) scopes.push({ type: "path", pattern: `projects/${project}/{evidence/*.json,project-synthesis.json}`, access: "write" });
  return scopes;
}

const toLedgerDecision = (d: PolicyDecision): LedgerDecision => ({ policy_id: d.rule, decision: d.decision, ...(d.detail ? { reason: d.detail } : {}) });

function errorFields(output: CallOutput): string {
  const errors = Array.isArray(output.errors) ? (output.errors as Record<string, unknown>[]) : [];
  const fields = errors.map((e) => String(e.field ?? e.path ?? "input"));
  return fields.length ? `invalid: ${[...new Set(fields)].join(", ")}` : "invalid";
}

async function tolerate(ctx: CoreContext, fn: () => Promise<void>): Promise<boolean> {
  try {
    await fn();
    return true;
  } catch (error) {
    ctx.log.warn(`audit ledger: could not record a tool call: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
}
