/** Which project a Gemini CLI chats folder belongs to (agent-formats.md §1, "Where"). */
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

import type { SourceWarning } from "@/lib/sources/common/agent-source";
import { isJsonObject } from "@/lib/sources/common/json-object";

/** The project roots a Gemini home (`~/.gemini`) records, keyed by slug and by sha256 of the root. */
export type GeminiProjectIndex = {
  /** Slug folder name (`tmp/<slug>`) → absolute project root. */
  bySlug: Map<string, string>;
  /** Lower-case sha256 hex of the root's UTF-8 text (the old `tmp/<hash>` folder, the header's `projectHash`) → root. */
  byHash: Map<string, string>;
};

/** The sha256 hex Gemini CLI names a project by (`getProjectHash(projectRoot)`). */
export function geminiProjectHash(root: string): string {
  return createHash("sha256").update(root, "utf8").digest("hex");
}

/**
 * Reads every project root a Gemini home records (agent-formats.md §1): `projects.json`
 * (`{"projects": {"<abs root>": "<slug>"}}`) first, then `tmp/<slug>/.project_root`, then
 * `history/<slug>/.project_root`; the first source that names a slug wins. A missing file is
 * normal (older homes have none); an unreadable or malformed `projects.json` is a warning.
 * Never throws.
 * @param home the Gemini home folder (the one holding `tmp/`).
 */
export async function readProjectIndex(home: string): Promise<{ index: GeminiProjectIndex; warnings: SourceWarning[] }> {
  const bySlug = new Map<string, string>();
  const warnings: SourceWarning[] = [];
  const registry = path.join(home, "projects.json");
  const text = await fs.readFile(registry, "utf8").catch(() => null);
  if (text !== null) {
    const projects = parseRegistry(text);
    if (projects === null) warnings.push({ file: registry, where: "file", problem: "not a {\"projects\": {root: slug}} object; ignored" });
    for (const [root, slug] of projects ?? []) if (!bySlug.has(slug)) bySlug.set(slug, root);
  }
  for (const folder of ["tmp", "history"]) {
    for (const [slug, root] of await readProjectRootFiles(path.join(home, folder))) if (!bySlug.has(slug)) bySlug.set(slug, root);
  }
  const byHash = new Map<string, string>();
  for (const root of bySlug.values()) byHash.set(geminiProjectHash(root), root);
  return { index: { bySlug, byHash }, warnings };
}

/**
 * The project root of a chats folder's project id: a registered slug, else a hash folder whose
 * name is the sha256 of a known root, else the file header's `projectHash` matched the same way;
 * null when nothing matches (the project stays unknown, agent-formats.md §1).
 */
export function resolveProjectRoot(index: GeminiProjectIndex, projectId: string | null, headerHash: string | null): string | null {
  if (projectId !== null) {
    const root = index.bySlug.get(projectId) ?? index.byHash.get(projectId.toLowerCase());
    if (root !== undefined) return root;
  }
  return headerHash === null ? null : (index.byHash.get(headerHash.toLowerCase()) ?? null);
}

/** `[root, slug]` pairs of a `projects.json` text, or null when it is not the expected shape. */
function parseRegistry(text: string): [string, string][] | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isJsonObject(value) || !isJsonObject(value.projects)) return null;
  return Object.entries(value.projects).flatMap(([root, slug]) => (typeof slug === "string" && root !== "" ? [[root, slug] as [string, string]] : []));
}

/** `[slug, root]` for every `<dir>/<slug>/.project_root` that holds a path. */
async function readProjectRootFiles(dir: string): Promise<[string, string][]> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  const found: [string, string][] = [];
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const text = await fs.readFile(path.join(dir, entry.name, ".project_root"), "utf8").catch(() => null);
    const root = text?.replace(/[\r\n]+$/, "") ?? "";
    if (root !== "") found.push([entry.name, root]);
  }
  return found;
}
