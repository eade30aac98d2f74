import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";

import { REPO_ROOT, WORKSPACE_DIR } from "./paths";

/** A prepared project as the synthesis spec needs it: key, directory, turn spans by `S0001/T0001`. */
export type SynthesisProject = { projectKey: string; dir: string; spans: Map<string, { start: number; end: number }> };

type IndexRow = { session_ref: string; turns: { turn_ref: string; turn_start_line: number; turn_end_line: number }[] };

/** Finds a project of the e2e workspace by its label (keys carry a path hash). */
export function findProjectByLabel(label: string): SynthesisProject {
  const projects = path.join(WORKSPACE_DIR, "projects");
  for (const projectKey of readdirSync(projects)) {
    const dir = path.join(projects, projectKey);
    const meta = path.join(dir, "project.json");
    if (!existsSync(meta) || (JSON.parse(readFileSync(meta, "utf8")) as { project_label?: string }).project_label !== label) continue;
    const spans = new Map<string, { start: number; end: number }>();
    for (const line of readFileSync(path.join(dir, "sessions.index.jsonl"), "utf8").split("\n")) {
      if (!line.trim()) continue;
      const row = JSON.parse(line) as IndexRow;
      for (const t of row.turns) spans.set(`${row.session_ref}/${t.turn_ref}`, { start: t.turn_start_line, end: t.turn_end_line });
    }
    return { projectKey, dir, spans };
  }
  throw new Error(`no project labelled ${label} in ${WORKSPACE_DIR}`);
}

/**
 * Drops the project's evidence cards and synthesis envelope, so a retry within one run starts
 * from the prepared state (global setup rebuilds the whole workspace with --force between runs).
 */
export function resetSynthesis(project: SynthesisProject): void {
  rmSync(path.join(project.dir, "project-synthesis.json"), { force: true });
  rmSync(path.join(project.dir, "evidence"), { recursive: true, force: true });
}

/** The envelope on disk, or null when there is none yet. */
export function readEnvelope(project: SynthesisProject): { work_items: Record<string, unknown>[] } | null {
  const file = path.join(project.dir, "project-synthesis.json");
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as { work_items: Record<string, unknown>[] }) : null;
}

/** An agent's call through the real CLI in another process (`casefile tool <name> '<json>'`). */
function tool(name: string, input: unknown): { status: string; errors?: unknown } {
  const args = ["tsx", "server/cli/main.ts", "tool", name, JSON.stringify(input), "--workspace", path.relative(REPO_ROOT, WORKSPACE_DIR)];
  try {
    return JSON.parse(execFileSync("npx", args, { cwd: REPO_ROOT, encoding: "utf8", timeout: 60_000 })) as { status: string };
  } catch (error) {
    // Exit code 2 is a structured rejection: report it instead of the bare exit status.
    const stdout = (error as { stdout?: string }).stdout;
    if (stdout) return JSON.parse(stdout) as { status: string; errors: unknown };
    throw error;
  }
}

/** A minimal valid chain for a whole turn (materiality minor). */
export function turnChain(project: SynthesisProject, key: string) {
  const [, turn_ref] = key.split("/");
  const span = project.spans.get(key);
  if (!span) throw new Error(`${key} is not indexed`);
  const all = { lines: `${span.start}-${span.end}` };
  return {
    turn_ref,
    trigger: { type: "explicit_user_message", summary: "The user asks for a change.", quoted_messages: [], citations: [{ lines: `${span.start}-${span.start}` }] },
    agent_reactions: [{ summary: "The agent works on it.", citations: [all] }],
    outcomes: [],
    observed_checks: [],
    terminal_state: { type: "clarification_only", summary: "Scope was clarified.", citations: [all] },
    materiality: "minor",
  };
}

export function writeEvidenceWithCli(project: SynthesisProject, key: string) {
  const [session_ref] = key.split("/");
  return tool("write_evidence", { project_key: project.projectKey, session_ref, evidence_chain: turnChain(project, key) });
}

export function writeWorkItemWithCli(project: SynthesisProject, workItem: Record<string, unknown>) {
  return tool("write_work_item", { project_key: project.projectKey, work_item: workItem });
}

const turnRef = (key: string) => {
  const [session_ref, turn_ref] = key.split("/");
  return { session_ref, turn_ref };
};

/** A valid material_work_item over turns that have a chain, citing all of them. */
export function materialItem(ref: string, ...keys: string[]): Record<string, unknown> {
  const refs = keys.map(turnRef);
  return {
    work_item_ref: ref,
    kind: "material_work_item",
    title: "Paginate the orders endpoint",
    covered_turns: refs,
    trigger: { summary: "The user asked for pagination.", evidence_refs: refs },
    agent_reaction: { summary: "The agent added pagination and tests.", main_actions: ["edited the orders handler"] },
    outcomes: [{ category: "code_outcome", summary: "Pagination implemented.", evidence_refs: refs, confidence: "high" }],
    terminal_states: [],
    limits: [],
    confidence: "high",
  };
}

/** A valid evidence_gap_item over turns without a chain. */
export function gapItem(ref: string, ...keys: string[]): Record<string, unknown> {
  return { work_item_ref: ref, kind: "evidence_gap_item", title: "No evidence for the docs follow-up", covered_turns: keys.map(turnRef), outcomes: [], terminal_states: [], limits: [], confidence: "medium" };
}
