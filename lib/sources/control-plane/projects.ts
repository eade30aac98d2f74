/** Registered Control Plane roots as projects, and where their registration lives. */
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

import type { CoreContext } from "@/lib/context";
import { toPrettyJson, writeFileAtomic } from "@/lib/fs/atomic-write";
import { withFileLock } from "@/lib/fs/file-lock";
import { CONFIG_DIR, configPath } from "@/lib/fs/workspace-layout";
import { sanitizeProjectLabel } from "@/lib/sources/common/project-key";
import { type ControlPlaneLayout, discoverControlPlane } from "@/lib/sources/control-plane/discover";
import type { ControlPlaneProject } from "@/lib/sources/control-plane/schema";
export type { ControlPlaneProject };


/**
 * The one module that owns where control-plane sources are recorded in a workspace:
 * `<workspace>/.casefile-config/control-plane.json`, `{schema_version: 1, roots: [{project_key,
 * project_label, root, registered_at}]}`. It is configuration (kept by `prepare --force`), not in
 * `projects/`, because `projects/<key>/` is prompt-diary's contract (project.json +
 * sessions.index.jsonl of transcript turns) and a ledger root has neither. Ledgers are read in
 * place (see README): never copied, never opened for writing.
 */
export const CONTROL_PLANE_FILE = path.join(CONFIG_DIR, "control-plane.json");


const fileOf = (ctx: CoreContext) => configPath(ctx.workspaceRoot, "control-plane.json");

/**
 * The registered roots, in registration order; `[]` when none (or the file is unreadable —
 * the transcript projects still load).
 */
export async function listControlPlaneProjects(ctx: CoreContext): Promise<ControlPlaneProject[]> {
  let raw: string;
  try {
    raw = await fs.readFile(fileOf(ctx), "utf8");
  } catch {
    return [];
  }
  try {
    const value = JSON.parse(raw) as { roots?: unknown };
    return Array.isArray(value.roots) ? (value.roots.filter((r) => typeof r?.project_key === "string" && typeof r?.root === "string") as ControlPlaneProject[]) : [];
  } catch {
    ctx.log.warn(`${fileOf(ctx)} is not valid JSON; control-plane projects are hidden until it is fixed or re-registered`);
    return [];
  }
}

/** The registered project with this key, or null (a transcript project, or unknown). */
export async function findControlPlaneProject(ctx: CoreContext, projectKey: string): Promise<ControlPlaneProject | null> {
  return (await listControlPlaneProjects(ctx)).find((p) => p.project_key === projectKey) ?? null;
}

/** The discovered layout of a control-plane project, or null when the key is not one. @throws AppError invalid_input when its root has gone. */
export async function controlPlaneLayoutFor(ctx: CoreContext, projectKey: string): Promise<ControlPlaneLayout | null> {
  const project = await findControlPlaneProject(ctx, projectKey);
  return project ? discoverControlPlane(project.root) : null;
}

/**
 * `project_key` of a root: `cp-<sanitized last component>-<first 12 hex of SHA-256 of
 * "control-plane:" + real root>` — the prefix keeps it apart from a transcript project whose
 * cwd was the same directory.
 */
export function controlPlaneProjectKey(realRoot: string): { project_key: string; project_label: string } {
  const label = sanitizeProjectLabel(path.basename(realRoot) || "control-plane");
  const hash = createHash("sha256").update(`control-plane:${realRoot}`, "utf8").digest("hex").slice(0, 12);
  return { project_key: `cp-${label}-${hash}`, project_label: label };
}

/**
 * Registers Control Plane roots (`casefile prepare --control-plane ROOT`, repeatable): each is
 * discovered first (so a root with no ledger is refused before anything is written), then
 * recorded once (re-registering a root keeps its entry). Atomic, serialized write.
 * @throws AppError invalid_input when a root is not a directory or holds no ledger.
 */
export async function registerControlPlaneRoots(ctx: CoreContext, roots: readonly string[]): Promise<{ projects: (ControlPlaneProject & { ledgers: number })[]; written: boolean }> {
  const layouts: ControlPlaneLayout[] = [];
  for (const root of roots) layouts.push(await discoverControlPlane(root));
  const file = fileOf(ctx);
  await fs.mkdir(path.dirname(file), { recursive: true });
  return withFileLock(file, async () => {
    const existing = await listControlPlaneProjects(ctx);
    let written = false;
    const out: (ControlPlaneProject & { ledgers: number })[] = [];
    for (const layout of layouts) {
      const ids = controlPlaneProjectKey(layout.root);
      let project = existing.find((p) => p.project_key === ids.project_key);
      if (!project) {
        project = { ...ids, root: layout.root, registered_at: ctx.now().toISOString() };
        existing.push(project);
        written = true;
      }
      out.push({ ...project, ledgers: layout.ledgers.length });
    }
    if (written) await writeFileAtomic(file, toPrettyJson({ schema_version: 1, roots: existing }));
    return { projects: out, written };
  });
}
