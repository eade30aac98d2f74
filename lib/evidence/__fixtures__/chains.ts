/** Test evidence chains and small workspaces to write them into. */
import fs from "node:fs/promises";

import { evidenceCardPath, projectDir } from "@/lib/fs/workspace-layout";
import { buildTestWorkspace, TEST_PROJECT_KEY, userLines } from "@/lib/testing/workspace-builder";
import type { IndexTurn } from "@/lib/sources/common/schema";

/*
 * Test data for lib/evidence: the valid chains of prompt-diary's basic-two-turns fixture
 * (shared/fixtures/prompt-diary/README.md) and workspaces with the same spans, built without
 * ../shared so that the rule tests always run.
 */

export const PROJECT = TEST_PROJECT_KEY;

/** basic-two-turns T0001: trigger 2-2, reaction 3-5, outcome 5-5, check 6-7, terminal 8-8. */
export function basicT1Chain(): Record<string, unknown> {
  return {
    turn_ref: "T0001",
    trigger: {
      type: "explicit_user_message",
      summary: "User asked to update the evidence contract docs for the MCP write surface.",
      quoted_messages: [{ text: "Please update the evidence contract docs for the MCP write surface.", citations: [{ lines: "2-2" }] }],
      citations: [{ lines: "2-2" }],
    },
    agent_reactions: [{ summary: "Agent inspected and edited the docs.", citations: [{ lines: "3-5" }] }],
    outcomes: [{ category: "document_outcome", summary: "Docs describe canonical evidence card writes.", citations: [{ lines: "5-5" }] }],
    observed_checks: [{ type: "test_output", summary: "The prompt test passed.", citations: [{ lines: "6-7" }] }],
    terminal_state: { type: "material_result", summary: "Docs updated and verified.", citations: [{ lines: "8-8" }] },
    materiality: "material",
  };
}

/** basic-two-turns T0002: trigger 9-9, reaction 10-10, `no_material`, materiality `none`. */
export function basicT2Chain(): Record<string, unknown> {
  return {
    turn_ref: "T0002",
    trigger: { type: "resume_or_continue", summary: "User asked to continue.", quoted_messages: [], citations: [{ lines: "9-9" }] },
    agent_reactions: [{ summary: "Agent reported no further assigned work.", citations: [{ lines: "10-10" }] }],
    outcomes: [],
    observed_checks: [],
    terminal_state: { type: "no_material", summary: "No further work was produced.", citations: [{ lines: "10-10" }] },
    materiality: "none",
  };
}

/** A valid chain for any turn spanning at least two lines: trigger on the first, the rest reactions. */
export function chainForTurn(turn: IndexTurn): Record<string, unknown> {
  const first = `${turn.turn_start_line}-${turn.turn_start_line}`;
  const rest = `${turn.turn_start_line + 1}-${turn.turn_end_line}`;
  const last = `${turn.turn_end_line}-${turn.turn_end_line}`;
  return {
    turn_ref: turn.turn_ref,
    trigger: { type: "explicit_user_message", summary: `Request of ${turn.turn_ref}.`, quoted_messages: [], citations: [{ lines: first }] },
    agent_reactions: [{ summary: "Agent did the work.", citations: [{ lines: rest }] }],
    outcomes: [{ category: "code_outcome", summary: "Code changed.", citations: [{ lines: last }] }],
    observed_checks: [],
    terminal_state: { type: "material_result", summary: "Done.", citations: [{ lines: last }] },
    materiality: "material",
  };
}

/** `count` turns of `size` lines each, from line 1: T0001 1-size, T0002 size+1-2·size, … */
export function evenTurns(count: number, size: number): IndexTurn[] {
  return Array.from({ length: count }, (_, i) => ({
    turn_ref: `T${String(i + 1).padStart(4, "0")}`,
    turn_start_line: i * size + 1,
    turn_end_line: (i + 1) * size,
  }));
}

/**
 * A schema-3 workspace whose S0001 has basic-two-turns' spans (T0001 2-8, T0002 9-10) and whose
 * S0002 has one turn 1-5. Returns the root.
 */
export function buildTwoTurnWorkspace(): Promise<string> {
  return buildTestWorkspace([
    { ref: "S0001", content: userLines(10), turns: [{ turn_ref: "T0001", turn_start_line: 2, turn_end_line: 8 }, { turn_ref: "T0002", turn_start_line: 9, turn_end_line: 10 }] },
    { ref: "S0002", content: userLines(5), turns: [{ turn_ref: "T0001", turn_start_line: 1, turn_end_line: 5 }] },
  ]);
}

/** Absolute path of a session's card in a test workspace. */
export const cardFile = (root: string, sessionRef = "S0001", projectKey = PROJECT): string =>
  evidenceCardPath(projectDir(root, projectKey), sessionRef);

/** The card's bytes, or null when absent. */
export async function cardBytes(root: string, sessionRef = "S0001", projectKey = PROJECT): Promise<Buffer | null> {
  return fs.readFile(cardFile(root, sessionRef, projectKey)).catch(() => null);
}
