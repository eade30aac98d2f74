/** Every path under a Casefile workspace, and the one change stamp of its indexed content: no other module builds these paths. */
import { existsSync, lstatSync, mkdirSync, renameSync } from "node:fs";
import path from "node:path";

import { fileStamp, fileStampOf } from "@/lib/fs/file-stamp";
import { listDirSync } from "@/lib/fs/list-dir";
import { linksOutside } from "@/lib/fs/paths";

/*
 * <workspace>/
 *   metadata.json                      prompt-diary schema 3 (also the prepare lock's anchor)
 *   projects/<project_key>/            project.json, sessions.index.jsonl, sessions.machines.json, sessions/, evidence/, project-synthesis.json
 *   .casefile/                         derived data, safe to delete: index/, analysis/, forensics/, usage/, sync/
 *   .casefile-config/                  configuration, kept by `prepare --force`: sources.json, control-plane.json
 *   .casefile-staging/                 prepare's staged copies while it runs
 *   audit/                             the audit ledger (lib/ledger/paths names what is inside)
 *   team/machines/<machine>/           a team server's pushed files: <root_id>/<path> mirrors, push-state.json
 */

/** The workspace's metadata file (prompt-diary contract). */
export const METADATA_FILE = "metadata.json";
/** The folder holding one folder per project. */
export const PROJECTS_DIR = "projects";
/** Casefile's derived data: deleting it loses nothing but time. */
export const CASEFILE_DIR = ".casefile";
/** Casefile's configuration: what the workspace syncs from and which Control Plane roots it shows. */
export const CONFIG_DIR = ".casefile-config";
/** Where a fresh prepare stages its copies of large sources. */
export const STAGING_DIR = ".casefile-staging";
/** The audit ledger's folder (never deleted by `prepare --force`). */
export const AUDIT_DIR = "audit";
/** The project's envelope of work items (seed 001). */
export const SYNTHESIS_FILE = "project-synthesis.json";

/** The folders under `.casefile/`, one per kind of derived data. */
export type DerivedArea = "index" | "analysis" | "forensics" | "usage" | "sync";
/** The configuration files under `.casefile-config/`. */
export type ConfigName = "sources.json" | "control-plane.json" | "pricing.json" | "retention.json";

/** What `prepare --force` deletes before it rebuilds (never configuration, staging or the audit ledger). */
export const REBUILT_ENTRIES: readonly string[] = [PROJECTS_DIR, METADATA_FILE, CASEFILE_DIR];

/** `<root>/metadata.json`. */
export const metadataPath = (root: string): string => path.join(root, METADATA_FILE);
/** `<root>/projects`. */
export const projectsDir = (root: string): string => path.join(root, PROJECTS_DIR);
/** `<root>/projects/<project_key>`. */
export const projectDir = (root: string, projectKey: string): string => path.join(root, PROJECTS_DIR, projectKey);
/** A project's identity file (contract §1.3). */
export const PROJECT_JSON = "project.json";
/** A project's index of sessions (contract §1.4). */
export const SESSIONS_INDEX = "sessions.index.jsonl";
/** `<project>/project.json`. */
export const projectJsonPath = (projectDirPath: string): string => path.join(projectDirPath, PROJECT_JSON);
/** `<project>/sessions.index.jsonl`. */
export const sessionsIndexPath = (projectDirPath: string): string => path.join(projectDirPath, SESSIONS_INDEX);
/** A project's record of the machine each session came from (lib/workspace/machines, issue 39). */
export const SESSION_MACHINES = "sessions.machines.json";
/** `<project>/sessions.machines.json`. */
export const sessionMachinesPath = (projectDirPath: string): string => path.join(projectDirPath, SESSION_MACHINES);
/** A project's folder of transcript copies. */
export const SESSIONS_DIR = "sessions";
/** `<project>/sessions`: transcript copies and their side folders. */
export const sessionsDir = (projectDirPath: string): string => path.join(projectDirPath, SESSIONS_DIR);
/** A project's folder of evidence cards. */
export const EVIDENCE_DIR = "evidence";
/** `<project>/evidence`. */
export const evidenceDir = (projectDirPath: string): string => path.join(projectDirPath, EVIDENCE_DIR);
/** `evidence/<session_ref>.json`: one session's evidence card, relative to its project folder. */
export const evidenceCardRel = (sessionRef: string): string => `evidence/${sessionRef}.json`;
/** `<project>/evidence/<session_ref>.json`. */
export const evidenceCardPath = (projectDirPath: string, sessionRef: string): string => path.join(projectDirPath, evidenceCardRel(sessionRef));
/** `projects/<project_key>/<rel>`: a project file as errors and audit records name it (workspace-relative). */
export const projectRelPath = (projectKey: string, rel: string): string => `${PROJECTS_DIR}/${projectKey}/${rel}`;
/** `<project>/project-synthesis.json`. */
export const synthesisPath = (projectDirPath: string): string => path.join(projectDirPath, SYNTHESIS_FILE);
/** `<root>/.casefile/<area>[/<name>...]`. */
export const derivedPath = (root: string, area: DerivedArea, ...names: string[]): string => path.join(root, CASEFILE_DIR, area, ...names);
/** `<root>/.casefile/catalog.sqlite`: the derived catalog and full-text index (lib/catalog owns its content). */
export const catalogPath = (root: string): string => path.join(root, CASEFILE_DIR, "catalog.sqlite");
/** `<root>/.casefile-staging`. */
export const stagingDir = (root: string): string => path.join(root, STAGING_DIR);
/** `<root>/audit`. */
export const auditDir = (root: string): string => path.join(root, AUDIT_DIR);
/** A team server's files pushed by its machines (issue 39): their only copy, so never derived and kept by `prepare --force`. */
export const TEAM_DIR = "team";
/** `<root>/team/machines/<machine>`: what one machine pushed (`machine` is a token's machine name, a safe folder name). */
export const teamMachineDir = (root: string, machine: string): string => path.join(root, TEAM_DIR, "machines", machine);
/** `<root>/team/machines/<machine>/<root_id>`: the mirror of one of the machine's source roots, files at their paths relative to that root. */
export const teamMirrorDir = (root: string, machine: string, rootId: string): string => path.join(teamMachineDir(root, machine), rootId);
/** `<root>/team/machines/<machine>/push-state.json`: the machine's announced roots and what the server holds of each file (lib/team/receive). */
export const teamPushStatePath = (root: string, machine: string): string => path.join(teamMachineDir(root, machine), "push-state.json");

/**
 * `<root>/.casefile-config/<name>`, moving a copy left in `.casefile/` by an older Casefile there
 * first (configuration used to sit in the derived folder, where `prepare --force` deleted it).
 * A file already at the new place wins; the old one is then left alone.
 */
export function configPath(root: string, name: ConfigName): string {
  const file = path.join(root, CONFIG_DIR, name);
  const legacy = path.join(root, CASEFILE_DIR, name);
  if (!existsSync(file) && existsSync(legacy)) {
    mkdirSync(path.dirname(file), { recursive: true });
    try {
      renameSync(legacy, file);
    } catch (error) {
      // Another process moved it first.
      if (!existsSync(file)) throw error;
    }
  }
  return file;
}

/**
 * What {@link workspaceStamp} covers: `index` = metadata, projects and indexes; `content` adds
 * evidence cards and synthesis envelopes; `folders` adds the envelopes and each evidence folder
 * (its mtime moves when a card is created, atomically replaced or deleted; not on an in-place edit).
 */
export type StampScope = "index" | "content" | "folders";

/**
 * The one change stamp of a workspace: inode, size and mtime of metadata.json and, per project
 * (sorted), project.json and sessions.index.jsonl (and with `content`, project-synthesis.json and
 * every evidence card; with `folders`, the envelope and each evidence folder). Equal stamps mean
 * nothing it covers was written (atomic writes change the inode). Synchronous stats: a thousand awaited stats are a thousand thread-pool round
 * trips, which a loaded machine stretches to hundreds of milliseconds.
 */
export function workspaceStamp(root: string, scope: StampScope = "index"): string {
  const parts: string[] = [statPart(metadataPath(root))];
  for (const name of listDirSync(projectsDir(root))) {
    const dir = projectDir(root, name);
    // An entry linked out of the project is neither stat'ed nor listed through the link (issue 35).
    parts.push(name, entryStamp(dir, PROJECT_JSON), entryStamp(dir, SESSIONS_INDEX));
    if (scope === "index") continue;
    parts.push(entryStamp(dir, SYNTHESIS_FILE));
    if (scope === "folders") parts.push(entryStamp(dir, EVIDENCE_DIR));
    if (scope === "content" && !linksOutside(dir, EVIDENCE_DIR)) {
      for (const card of listDirSync(evidenceDir(dir)).filter((n) => n.endsWith(".json"))) parts.push(card, statPart(path.join(evidenceDir(dir), card)));
    }
  }
  return parts.join("|");
}

/**
 * The change stamp (size, mtime, inode: lib/fs/file-stamp; `-` when absent) of the entry `name` of
 * folder `dir`, from one `lstat`: a link is followed only when it stays inside `dir`, else the stamp
 * reads `outside` (issue 35: nothing outside a project is stat'ed through a link). The catalog
 * stores it in its project stamps and the sync memo hashes it: a stamp stored before the inode
 * went last (issue 36) only reads as a change, so each project's row is rewritten once.
 */
export function entryStamp(dir: string, name: string): string {
  const file = path.join(dir, name);
  const st = lstatSync(file, { throwIfNoEntry: false });
  if (!st) return "-";
  if (st.isSymbolicLink()) return linksOutside(dir, name) ? "outside" : statPart(file);
  return fileStamp(st, { inode: true });
}

function statPart(file: string): string {
  return fileStampOf(file, { inode: true }) ?? "-";
}
