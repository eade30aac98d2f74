/** The Control Plane tools: verify ledgers, read ledger lines, project facts. */
import * as z from "zod";

import { AppError } from "@/lib/errors";
import { findLedger } from "@/lib/sources/control-plane/discover";
import { forEachLedgerLine } from "@/lib/sources/control-plane/ledger-lines";
import { controlPlaneLayoutFor, findControlPlaneProject } from "@/lib/sources/control-plane/projects";
import { verifyControlPlane, verifyLedger } from "@/lib/sources/control-plane/verify";
import { defineTool } from "@/lib/tools/define-tool";
import { wholeNumber } from "@/lib/tools/input-fields";

const projectKey = z.string().min(1, "project_key must be a non-empty string").describe("A control-plane project (casefile prepare --control-plane ROOT).");

async function layoutOrThrow(ctx: Parameters<typeof controlPlaneLayoutFor>[0], key: string) {
  const layout = await controlPlaneLayoutFor(ctx, key);
  if (!layout) throw new AppError("not_found", `'${key}' is not a control-plane project`, { hint: "register a Control Plane root with casefile prepare --control-plane ROOT" });
  return layout;
}

/** `verify_ledgers`: the integrity verdict of every ledger of a control-plane project (source-formats.md §3.2). */
export const verifyLedgersTool = defineTool({
  name: "verify_ledgers",
  title: "Verify Control Plane ledgers",
  description:
    "Verify every ledger of a Control Plane project: entry_hash (SHA-256 of the entry without it, sorted keys, Python json.dumps text), previous_hash links, legacy lines, cross-segment links and segment Merkle roots against index.jsonl; per-session exec/evidence/chat ledgers too. One verdict per ledger (ok | broken | empty) naming the first broken file:line. Read-only.",
  readOnly: true,
  input: z.object({ project_key: projectKey, ledger: z.string().min(1).optional().describe("Only this ledger (governance, ho2m, ho1m, SES-…/exec, …).") }),
  inputHint: "pass {project_key} of a control-plane project, optionally {ledger}",
  run: async (ctx, input) => {
    // Not a Control Plane project: the same `invalid` through every door (issue 26: it was a 404 on
    // HTTP, plain text with exit 3 on the CLI and plain text on MCP).
    const layout = await controlPlaneLayoutFor(ctx, input.project_key);
    if (!layout) return { status: "invalid" as const, errors: [{ field: "project_key", message: `'${input.project_key}' is not a control-plane project`, hint: "register a Control Plane root with casefile prepare --control-plane ROOT; list_projects names them" }] };
    if (input.ledger !== undefined) {
      const one = findLedger(layout, input.ledger);
      if (!one) return { status: "invalid" as const, errors: [{ field: "ledger", message: `unknown ledger '${input.ledger}'`, hint: `use one of: ${layout.ledgers.map((l) => l.id).join(", ")}` }] };
      return { status: "ok" as const, project_key: input.project_key, root: layout.root, ledgers: [await verifyLedger(one)] };
    }
    return { status: "ok" as const, project_key: input.project_key, root: layout.root, ledgers: await verifyControlPlane(layout) };
  },
});

/** `read_ledger_lines` (dashboard): a window of one ledger's raw lines, for the ledger viewer. */
export const readLedgerLinesTool = defineTool({
  name: "read_ledger_lines",
  title: "Read Control Plane ledger lines",
  description: "A window of raw lines (segment file, line number, text) of one ledger of a control-plane project, in chain order; with file and line, the window starts 20 lines before that line. Read-only.",
  readOnly: true,
  audience: "dashboard",
  input: z.object({ project_key: projectKey, ledger: z.string().min(1), offset: wholeNumber().min(0).default(0), limit: wholeNumber().min(1).max(1000).default(200), file: z.string().min(1).optional(), line: wholeNumber().min(1).optional() }),
  inputHint: "pass {project_key, ledger, offset ≥ 0, limit 1-1000, file?, line?}",
  run: async (ctx, input) => {
    const layout = await layoutOrThrow(ctx, input.project_key);
    const ledger = findLedger(layout, input.ledger);
    if (!ledger) return { status: "invalid" as const, errors: [{ field: "ledger", message: `unknown ledger '${input.ledger}'`, hint: `use one of: ${layout.ledgers.map((l) => l.id).join(", ")}` }] };
    const project = (await findControlPlaneProject(ctx, input.project_key))!;
    const all: { file: string; line: number; text: string }[] = [];
    for (const segment of ledger.segments) {
      const file = segment.slice(ledger.dir.length + 1);
      await forEachLedgerLine(segment, (l) => void all.push({ file, line: l.line, text: l.text }));
    }
    const at = input.line === undefined ? -1 : all.findIndex((l) => l.line === input.line && (input.file === undefined || l.file === input.file));
    const offset = at >= 0 ? Math.max(0, at - 20) : input.offset;
    const lines = all.slice(offset, offset + input.limit);
    const total = all.length;
    return { status: "ok" as const, project_key: input.project_key, project_label: project.project_label, ledger: ledger.id, segments: ledger.segments.map((s) => s.slice(ledger.dir.length + 1)), total_lines: total, offset, lines };
  },
});

/**
 * `get_control_plane_project` (dashboard): the registered Control Plane root with this key —
 * `{status:"ok", project: {project_key, project_label, root, registered_at} | null}`; null for a
 * transcript project or an unknown key, so a page can pick its Control Plane branch through the
 * registry. Reads `.casefile/control-plane.json` only (no ledger). Read-only.
 */
export const getControlPlaneProjectTool = defineTool({
  name: "get_control_plane_project",
  title: "Get a Control Plane project",
  description: "The registered Control Plane root (project_key, project_label, root, registered_at) of this project_key, or project null for any other project. Read-only.",
  readOnly: true,
  audience: "dashboard",
  input: z.object({ project_key: z.string().min(1, "project_key must be a non-empty string") }),
  inputHint: "pass {project_key}",
  run: async (ctx, input) => ({ status: "ok" as const, project: await findControlPlaneProject(ctx, input.project_key) }),
});

export const controlPlaneTools = [verifyLedgersTool, readLedgerLinesTool, getControlPlaneProjectTool];
