/**
 * Which files under a source root a push sends: the files that root's source reads (each
 * source's rule, `SourceFormat.pushed` in lib/sources/<source>/pushed-files.ts, found through the
 * registry by the root's kind), and nothing else a home folder holds (Gemini's and OpenCode's
 * homes keep credentials beside the sessions). The server accepts only these too.
 */
import fs from "node:fs/promises";
import path from "node:path";

import type { PushedFileClass, PushedFiles } from "@/lib/sources/common/pushed-files";
import { SOURCE_FORMATS } from "@/lib/sources/formats";
import type { PushKind } from "@/lib/team/push/protocol";

export type { PushedFileClass } from "@/lib/sources/common/pushed-files";

/** Folders no source reads inside (Aider's discovery skips them; nothing else keeps sessions there). */
const SKIPPED_FOLDERS = new Set(["node_modules", ".git"]);

/** Each root kind's rule, from the registry (every push kind is some source's root kind). */
const RULES = new Map<string, PushedFiles>(SOURCE_FORMATS.map((f) => [f.rootKind, f.pushed]));

function ruleOf(kind: PushKind): PushedFiles {
  const rule = RULES.get(kind);
  if (!rule) throw new Error(`no source reads roots of kind '${kind}'`);
  return rule;
}

/**
 * The class of the file at `rel` (relative to a root of `kind`, `/`-separated), or null when
 * that source does not read it: a one-file root's file is always read (its source decides what
 * it makes of it, as in a local prepare); nothing under `node_modules` or `.git`; else the
 * source's rule.
 */
export function classifyPushedFile(kind: PushKind, rel: string, fileRoot: boolean): PushedFileClass | null {
  const rule = ruleOf(kind);
  if (fileRoot) return { transcript: true, appendOnly: rule.oneFileAppendOnly(rel.split("/").at(-1)!) };
  if (rel.split("/").some((p) => SKIPPED_FOLDERS.has(p))) return null;
  return rule.file(rel);
}

/** A file a push sends: its absolute path, its path relative to the root, and its class. */
export type PushedFile = { abs: string; rel: string } & PushedFileClass;

/**
 * Every file under `root` (absolute; a folder or one file) that a push of kind `kind` sends, in
 * POSIX path order. A root holding some of its source's home folders sends only those (a
 * Codex home: its `sessions` and `archived_sessions`, as Codex discovery reads them). Folder links are not followed (as lib/sources/common/walk-files);
 * unreadable folders are left out. A missing root has no files.
 */
export async function listPushedFiles(kind: PushKind, root: string): Promise<PushedFile[]> {
  const st = await fs.stat(root).catch(() => null);
  if (st === null) return [];
  if (!st.isDirectory()) {
    const rel = path.basename(root);
    return [{ abs: root, rel, ...classifyPushedFile(kind, rel, true)! }];
  }
  let tops = [""];
  const homeFolders = ruleOf(kind).homeFolders ?? [];
  const present = [];
  for (const dir of homeFolders) if ((await fs.stat(path.join(root, dir)).catch(() => null))?.isDirectory()) present.push(dir);
  if (present.length > 0) tops = present;
  const out: PushedFile[] = [];
  const pending = [...tops];
  for (let rel = pending.pop(); rel !== undefined; rel = pending.pop()) {
    const entries = await fs.readdir(path.join(root, rel), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const childRel = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) pending.push(childRel);
        continue;
      }
      const abs = path.join(root, childRel);
      if (!entry.isFile() && !(entry.isSymbolicLink() && (await fs.stat(abs).catch(() => null))?.isFile())) continue;
      const cls = classifyPushedFile(kind, childRel, false);
      if (cls) out.push({ abs, rel: childRel, ...cls });
    }
  }
  return out.sort((a, b) => Buffer.compare(Buffer.from(a.rel), Buffer.from(b.rel)));
}
