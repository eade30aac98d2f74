/**
 * Provenance (issue 39): the machine each session came from, recorded per project by prepare in
 * `projects/<key>/sessions.machines.json` (this module owns that file) and read by the catalog.
 */
import { readFileSync, statSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import { z } from "zod";

import { stampedCache } from "@/lib/cache/stamped-cache";
import { AppError } from "@/lib/errors";
import { toPrettyJson, writeFileAtomic } from "@/lib/fs/atomic-write";
import { fileStamp } from "@/lib/fs/file-stamp";
import { SESSION_MACHINES, sessionMachinesPath } from "@/lib/fs/workspace-layout";
import { MACHINE_NAME } from "@/lib/workspace/schema";

export { MACHINE_NAME, machineNameSchema } from "@/lib/workspace/schema";

/**
 * The machine name a root without one stands for: `CASEFILE_MACHINE`, else `os.hostname()`
 * (up to its first character a machine name cannot hold; `local` when nothing is left).
 * @throws AppError invalid_input when `CASEFILE_MACHINE` is set but is not a {@link MACHINE_NAME}.
 */
export function localMachine(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const given = env.CASEFILE_MACHINE?.trim();
  if (given) {
    if (!MACHINE_NAME.test(given)) throw new AppError("invalid_input", `CASEFILE_MACHINE '${given}' is not a machine name`, { fieldErrors: { CASEFILE_MACHINE: ["not a machine name"] }, hint: "letters, digits, '.', '_' or '-', at most 64 characters" });
    return given;
  }
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}/.exec(os.hostname())?.[0] ?? "local";
}

/**
 * Checks a machine name given by a user (`casefile sources add --machine`, a token's machine).
 * @throws AppError invalid_input naming `field` when it is not a {@link MACHINE_NAME}.
 */
export function checkMachineName(name: string, field = "machine"): string {
  if (!MACHINE_NAME.test(name)) throw new AppError("invalid_input", `'${name}' is not a machine name`, { fieldErrors: { [field]: ["not a machine name"] }, hint: "letters, digits, '.', '_' or '-', at most 64 characters, starting with a letter or digit" });
  return name;
}

/** Session machines read, by file, kept while the file's stamp holds. */
const cache = stampedCache<ReadonlyMap<string, string>>("workspace:session-machines", 16 << 20);

const fileSchema = z.object({ schema_version: z.literal(1), machines: z.record(z.string(), z.string().regex(MACHINE_NAME)) });

/**
 * The recorded machine of each session of the project at `projectDir`, by session_ref (an empty
 * map when the file is absent: a workspace prepared before issue 39, or by prompt-diary; its
 * sessions are the local machine's, {@link sessionMachine}). Synchronous and cached by the file's stamp.
 * @throws AppError parse_error when the file is not a machines record.
 */
export function readSessionMachines(projectDir: string): ReadonlyMap<string, string> {
  const file = sessionMachinesPath(projectDir);
  const st = statSync(file, { throwIfNoEntry: false });
  if (!st?.isFile()) return new Map();
  const stamp = fileStamp(st, { inode: true });
  const known = cache.get(file, stamp);
  if (known) return known;
  let parsed: z.infer<typeof fileSchema> | null = null;
  try {
    const result = fileSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
    if (result.success) parsed = result.data;
  } catch {
    /* reported below */
  }
  if (!parsed) throw new AppError("parse_error", `${path.basename(projectDir)}/${SESSION_MACHINES} is not a machines record`, { path: file, hint: "prepare the workspace again (casefile prepare) to rewrite it" });
  const map = new Map(Object.entries(parsed.machines));
  cache.set(file, stamp, map, 64 + map.size * 64);
  return map;
}

/** The machine a session came from: its recorded machine, else (nothing recorded) the local machine ({@link localMachine}). */
export function sessionMachine(projectDir: string, sessionRef: string): string {
  return readSessionMachines(projectDir).get(sessionRef) ?? localMachine();
}

/**
 * The machines the sessions `sessionRefs` of the project at `projectDir` came from, each once,
 * sorted ({@link sessionMachine}): the list's Machine column and filter show when there are two or more.
 * @throws AppError parse_error as {@link readSessionMachines}.
 */
export function projectMachines(projectDir: string, sessionRefs: readonly string[]): string[] {
  const recorded = readSessionMachines(projectDir);
  const local = localMachine();
  return [...new Set(sessionRefs.map((ref) => recorded.get(ref) ?? local))].sort();
}

/**
 * Records the machine of each session of the project at `projectDir` (session_ref → machine),
 * atomically, when it differs from what is recorded; returns 1 when written, else 0.
 * @throws the fs error of the write.
 */
export async function writeSessionMachines(projectDir: string, machines: ReadonlyMap<string, string>): Promise<number> {
  const sorted = Object.fromEntries([...machines].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const content = toPrettyJson({ schema_version: 1, machines: sorted });
  const file = sessionMachinesPath(projectDir);
  const current = await fs.readFile(file, "utf8").catch(() => null);
  if (current === content) return 0;
  await writeFileAtomic(file, content);
  return 1;
}
