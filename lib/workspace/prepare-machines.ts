/**
 * Prepare's plan across machines (issue 39 provenance): the agents' roots planned machine by
 * machine, and two machines' sessions that would share a workspace file kept apart.
 */
import { statSync } from "node:fs";
import path from "node:path";

import { projectDir, sessionsDir } from "@/lib/fs/workspace-layout";
import { AGENT_SOURCE_NAMES, type AgentSourceName } from "@/lib/sources/common/agent-source";
import { localMachine } from "@/lib/workspace/machines";
import type { AgentPlan } from "@/lib/workspace/prepare-agents";
import type { PlannedSession, SourceRoots } from "@/lib/workspace/prepare-plan";
import { rootMachine, type AgentRoots } from "@/lib/workspace/sources";

/** Plans one machine's agent roots; `fresh`: without the sync's memo (every session read and exported again). */
export type PlanAgents = (roots: AgentRoots, fresh: boolean) => Promise<AgentPlan>;

/** A session planned again from its source without the memo, its lines exported: null when it is no longer found. */
export type Replan = (session: PlannedSession) => Promise<PlannedSession | null>;

/**
 * The agents' roots of `roots` planned one machine at a time (each machine's duplicates are its
 * own: two machines' copies of a session are not one session), each session tagged with its
 * root's machine. `replan` plans a session again without the memo (see {@link apartByMachine}).
 */
export async function planAgentsByMachine(roots: SourceRoots, plan: PlanAgents): Promise<AgentPlan & { replan: Replan }> {
  const byMachine = new Map<string, AgentRoots>();
  for (const name of AGENT_SOURCE_NAMES) {
    for (const root of roots.agents?.[name] ?? []) {
      const machine = rootMachine(roots, root);
      const group = byMachine.get(machine) ?? {};
      group[name] = [...(group[name] ?? []), root];
      byMachine.set(machine, group);
    }
  }
  const out: AgentPlan = { sessions: [], skipped: [], warnings: [] };
  for (const [machine, agentRoots] of byMachine) {
    const planned = await plan(agentRoots, false);
    out.sessions.push(...planned.sessions.map((s) => ({ ...s, machine })));
    out.skipped.push(...planned.skipped);
    out.warnings.push(...planned.warnings);
  }
  // One fresh plan per machine and agent, made when first asked for.
  const fresh = new Map<string, Promise<PlannedSession[]>>();
  const replan: Replan = async (session) => {
    const machine = session.machine ?? localMachine();
    const agent = session.source as AgentSourceName;
    const key = `${machine}\u0000${agent}`;
    let sessions = fresh.get(key);
    if (sessions === undefined) fresh.set(key, (sessions = plan({ [agent]: byMachine.get(machine)?.[agent] ?? [] }, true).then((p) => p.sessions)));
    const again = (await sessions).find((s) => s.sourceSessionId === session.sourceSessionId && s.sourcePath === session.sourcePath);
    return again ? { ...again, machine } : null;
  };
  return { ...out, replan };
}

/**
 * The workspace file name of a session of `machine` whose own name another machine's session
 * already has in the project: `<stem>@<machine><ext>` (a machine name is a safe file name part).
 */
export function machineFileName(fileName: string, machine: string): string {
  const ext = path.extname(fileName);
  return `${fileName.slice(0, fileName.length - ext.length)}@${machine}${ext}`;
}

/**
 * Sessions of different machines that would be written to one workspace file
 * (`projects/<key>/sessions/<source>/<file>`: the same session id on two machines, a copied home
 * folder) kept apart (issue 39: both survive, each with its machine): the local machine's, else
 * the first machine's by name, keeps the name, the others' take {@link machineFileName}. An agent
 * session the sync remembered unchanged under its own name is planned again (`replan`) when its
 * new file is not there yet. Sessions of one machine that collide are left for prepare's own rule.
 */
export async function apartByMachine(sessions: PlannedSession[], workspaceRoot: string, replan: Replan): Promise<PlannedSession[]> {
  const local = localMachine();
  const groups = new Map<string, PlannedSession[]>();
  for (const s of sessions) {
    const key = `${s.projectKey}/${s.source}/${s.fileName}`;
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  // Sessions replaced by their renamed plan (null: no longer found), in the plan's order.
  const replaced = new Map<PlannedSession, PlannedSession | null>();
  for (const group of groups.values()) {
    const machines = [...new Set(group.map((s) => s.machine ?? local))].sort((a, b) => (a === local ? -1 : b === local ? 1 : a < b ? -1 : a > b ? 1 : 0));
    if (machines.length < 2) continue;
    for (const s of group) {
      const machine = s.machine ?? local;
      if (machine === machines[0]) continue;
      const renamed = { ...s, fileName: machineFileName(s.fileName, machine) };
      const file = path.join(sessionsDir(projectDir(workspaceRoot, s.projectKey)), s.source, renamed.fileName);
      if (renamed.exported !== "unchanged" || statSync(file, { throwIfNoEntry: false })?.isFile()) {
        replaced.set(s, renamed);
        continue;
      }
      const again = await replan(s);
      replaced.set(s, again ? { ...again, fileName: renamed.fileName } : null);
    }
  }
  if (replaced.size === 0) return sessions;
  return sessions.flatMap((s) => {
    const r = replaced.has(s) ? replaced.get(s)! : s;
    return r === null ? [] : [r];
  });
}
