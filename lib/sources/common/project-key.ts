/** A session's project identity: key and label (contract §1.3). */
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";

/** The deterministic project identity of one session (contract §1.3). */
export type ProjectIdentity = {
  /** Resolved absolute root, the `\`→`/` string of a missing path, or `unknown-project/<source>/<id>`. */
  canonicalRoot: string;
  /** True when the session had no project root. */
  isUnknown: boolean;
  /** Sanitized display name, e.g. `ReportGenerator` (≤ 48 chars, never empty). */
  projectLabel: string;
  /** `${projectLabel}-${hash12}`, e.g. `ReportGenerator-e6ff7eeda632`. */
  projectKey: string;
};

const UNKNOWN_LABEL = "unknown-project";
const LABEL_MAX = 48;

/**
 * Derives `project_key`/`project_label` exactly like prompt-diary (contract §1.3).
 *
 * A null or blank root is unknown (`unknown-project/<source>/<sourceSessionId>`). Otherwise `~`
 * is expanded; an existing path becomes its realpath (symlinks resolved), a missing one keeps
 * its normalised text with `\` turned into `/`. The label sanitizes the last path component;
 * the key appends the first 12 hex digits of SHA-256 over the canonical root's UTF-8 bytes.
 * @param root the session's project root (Claude: first top-level `cwd`), or null.
 * @param source source name, used only for unknown roots.
 * @param sourceSessionId source session id, used only for unknown roots.
 * Never throws: a path that cannot be stat'ed or resolved counts as missing.
 */
export async function deriveProjectIdentity(
  root: string | null,
  source: string,
  sourceSessionId: string,
): Promise<ProjectIdentity> {
  const isUnknown = root === null || root.trim() === "";
  const canonicalRoot = isUnknown ? `unknown-project/${source}/${sourceSessionId}` : await canonicalProjectRoot(root);
  const projectLabel = isUnknown ? UNKNOWN_LABEL : sanitizeProjectLabel(lastComponent(canonicalRoot));
  const hash12 = createHash("sha256").update(canonicalRoot, "utf8").digest("hex").slice(0, 12);
  return { canonicalRoot, isUnknown, projectLabel, projectKey: `${projectLabel}-${hash12}` };
}

/**
 * Sanitizes a display name into a project label (contract §1.3): runs of characters outside
 * `[A-Za-z0-9._-]` become `-`, repeated `-` collapse, `-` is trimmed from both ends, the result
 * is cut to 48 characters and trimmed again; an empty result becomes `unknown-project`.
 */
export function sanitizeProjectLabel(displayName: string): string {
  const collapsed = displayName.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/-+/g, "-");
  const label = trimDashes(trimDashes(collapsed).slice(0, LABEL_MAX));
  return label === "" ? UNKNOWN_LABEL : label;
}

/**
 * Expands a leading `~` or `~/` to the user's home directory, like Python's `expanduser` for the
 * current user. `~name` forms are returned unchanged.
 */
export function expandHome(value: string): string {
  if (value === "~") return os.homedir();
  if (value.startsWith("~/")) return os.homedir() + value.slice(1);
  return value;
}

async function canonicalProjectRoot(root: string): Promise<string> {
  const normalized = normalizePosixPath(expandHome(root));
  try {
    await fs.stat(normalized);
    return await fs.realpath(normalized);
  } catch {
    return normalized.replaceAll("\\", "/");
  }
}

/**
 * Python `PurePosixPath` string normalisation: drops empty and `.` components and a trailing
 * slash, keeps `..`, keeps a leading `//` (POSIX-reserved) but folds three or more slashes.
 */
function normalizePosixPath(value: string): string {
  const prefix = value.startsWith("//") && !value.startsWith("///") ? "//" : value.startsWith("/") ? "/" : "";
  const body = value
    .split("/")
    .filter((part) => part !== "" && part !== ".")
    .join("/");
  return prefix + body || ".";
}

function lastComponent(canonicalRoot: string): string {
  const parts = canonicalRoot.replaceAll("\\", "/").split("/").filter((part) => part !== "" && part !== ".");
  return parts.at(-1) ?? "";
}

function trimDashes(value: string): string {
  return value.replace(/^-+|-+$/g, "");
}
