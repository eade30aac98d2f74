import { AppError } from "@/lib/errors";
import { AGENT_SOURCE_NAMES } from "@/lib/sources/common/agent-source";
import { allRoots, editSources, readSources, type AgentRoots, type SourceKind, type WorkspaceSources } from "@/lib/workspace/sources";

export type SourcesFlags = { workspace: string; claude?: string[]; codex?: string[]; agents?: AgentRoots; machine?: string; json: boolean };

/**
 * `casefile sources [list]`, `casefile sources add --claude PATH | --codex PATH | --<agent> PATH
 * [--machine NAME]`, `casefile sources remove PATH`: lists or edits the sources the workspace syncs
 * from (issue 12, item 1); `--machine` records the machine the added roots' sessions came from
 * (issue 39; without it, the local machine). A running dashboard picks an edit up within about a
 * second; the next start syncs it.
 * @throws AppError invalid_input for an unknown action, a missing path or an unrecorded one.
 */
export async function runSources(action: string | undefined, arg: string | undefined, flags: SourcesFlags): Promise<number> {
  let sources: WorkspaceSources | null;
  switch (action ?? "list") {
    case "list":
      sources = await readSources(flags.workspace);
      break;
    case "add": {
      const adds: { kind: SourceKind; path: string }[] = [
        ...(flags.claude ?? []).map((p) => ({ kind: "claude" as const, path: p })),
        ...(flags.codex ?? []).map((p) => ({ kind: "codex" as const, path: p })),
        ...AGENT_SOURCE_NAMES.flatMap((kind) => (flags.agents?.[kind] ?? []).map((p) => ({ kind, path: p }))),
      ];
      if (adds.length === 0) throw new AppError("invalid_input", `sources add needs --claude PATH, --codex PATH or ${AGENT_SOURCE_NAMES.map((n) => `--${n} PATH`).join(", ")}`, { hint: "e.g. casefile sources add --claude ~/.claude/projects, or casefile sources add --aider ~/src/myrepo" });
      sources = null;
      for (const add of adds) sources = await editSources(flags.workspace, { add: { ...add, ...(flags.machine ? { machine: flags.machine } : {}) } });
      break;
    }
    case "remove":
      if (!arg) throw new AppError("invalid_input", "sources remove needs the PATH to remove", { hint: "run casefile sources to list them" });
      sources = await editSources(flags.workspace, { remove: arg });
      break;
    default:
      throw new AppError("invalid_input", `unknown sources action '${action}'`, { hint: "use list, add or remove" });
  }
  process.stdout.write(flags.json ? `${JSON.stringify({ ok: true, data: sources })}\n` : renderSources(flags.workspace, sources));
  return 0;
}

function renderSources(workspace: string, s: WorkspaceSources | null): string {
  const roots = s ? allRoots(s) : [];
  if (!s || roots.length === 0) return `workspace ${workspace} records no sources; add one with casefile sources add --claude PATH (or --codex PATH, --<agent> PATH)\n`;
  const width = Math.max(...roots.map((r) => r.kind.length));
  // A root of another machine says whose (issue 39); the others are this machine's.
  const lines = [`workspace ${workspace} syncs from${s.demo ? " (Casefile's demo transcripts)" : ""}:`, ...roots.map((r) => `  ${r.kind.padEnd(width)}  ${r.root}${s.machines?.[r.root] ? `  (machine ${s.machines[r.root]})` : ""}`)];
  return `${lines.join("\n")}\n`;
}
