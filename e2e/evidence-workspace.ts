import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

import { REPO_ROOT, WORKSPACE_DIR } from "./paths";

/** A session of the e2e workspace as the evidence spec needs it: ids, turns, card file. */
export type WorkspaceSession = {
  projectKey: string;
  sessionRef: string;
  turns: { turn_ref: string; turn_start_line: number; turn_end_line: number }[];
  cardPath: string;
  url: string;
};

type IndexRow = { session_ref: string; source_session_id: string; turns: WorkspaceSession["turns"] };

/** Finds a session by its source id in the prepared workspace (keys carry a path hash). */
export function findWorkspaceSession(sourceSessionId: string): WorkspaceSession {
  const projects = path.join(WORKSPACE_DIR, "projects");
  for (const projectKey of readdirSync(projects)) {
    const index = path.join(projects, projectKey, "sessions.index.jsonl");
    if (!existsSync(index)) continue;
    for (const line of readFileSync(index, "utf8").split("\n")) {
      if (!line.trim()) continue;
      const row = JSON.parse(line) as IndexRow;
      if (row.source_session_id !== sourceSessionId) continue;
      return {
        projectKey,
        sessionRef: row.session_ref,
        turns: row.turns,
        cardPath: path.join(projects, projectKey, "evidence", `${row.session_ref}.json`),
        url: `/projects/${encodeURIComponent(projectKey)}/sessions/${encodeURIComponent(row.session_ref)}`,
      };
    }
  }
  throw new Error(`session ${sourceSessionId} is not in ${WORKSPACE_DIR}`);
}

type StoredChain = Record<string, unknown> & { turn_ref?: unknown };
type Card = { evidence_chains: StoredChain[] } & Record<string, unknown>;

/** The card on disk, or null when there is none yet. */
export function readCard(session: WorkspaceSession): Card | null {
  return existsSync(session.cardPath) ? (JSON.parse(readFileSync(session.cardPath, "utf8")) as Card) : null;
}

export function chainOf(card: Card | null, turnRef: string): StoredChain | undefined {
  return card?.evidence_chains.find((c) => c.turn_ref === turnRef);
}

/**
 * Drops this spec's chains from the card, so a retry within one run starts clean (global setup
 * rebuilds the workspace with --force between runs). Other specs' chains are left alone.
 */
export function dropChains(session: WorkspaceSession, turnRefs: readonly string[]): void {
  const card = readCard(session);
  if (!card) return;
  const kept = card.evidence_chains.filter((c) => !turnRefs.includes(String(c.turn_ref)));
  if (kept.length !== card.evidence_chains.length) writeFileSync(session.cardPath, `${JSON.stringify({ ...card, evidence_chains: kept }, null, 2)}\n`);
}

/** Another writer (a second reviewer) rewrites one stored chain in place on disk. */
export function rewriteChain(session: WorkspaceSession, turnRef: string, change: (chain: StoredChain) => StoredChain): void {
  const card = readCard(session);
  if (!card) throw new Error(`no card for ${session.sessionRef}`);
  const chains = card.evidence_chains.map((c) => (c.turn_ref === turnRef ? change(c) : c));
  writeFileSync(session.cardPath, `${JSON.stringify({ ...card, evidence_chains: chains }, null, 2)}\n`);
}

/** An agent's append through the real CLI (`casefile tool write_evidence`); returns its result. */
export function writeEvidenceWithCli(session: WorkspaceSession, chain: unknown): { status: string } {
  const input = JSON.stringify({ project_key: session.projectKey, session_ref: session.sessionRef, evidence_chain: chain });
  const out = execFileSync("npx", ["tsx", "server/cli/main.ts", "tool", "write_evidence", input, "--workspace", path.relative(REPO_ROOT, WORKSPACE_DIR)], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    timeout: 60_000,
  });
  return JSON.parse(out) as { status: string };
}
