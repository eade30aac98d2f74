/** Test workspaces with committed evidence, for the synthesis tests. */
import fs from "node:fs/promises";
import path from "node:path";

import { evidenceCardPath, projectDir, synthesisPath } from "@/lib/fs/workspace-layout";
import { buildTestWorkspace, TEST_PROJECT_KEY, userLines } from "@/lib/testing/workspace-builder";
import type { IndexTurn } from "@/lib/sources/common/schema";

/*
 * Test data for lib/synthesis: a workspace with the spans of prompt-diary's daily-synthesis/basic
 * index (S0001: T0001 2-8, T0002 9-12, T0003 13-15; S0002: T0001 2-6) and cards with chains for
 * every turn but S0001/T0003, the "gap" turn (shared/fixtures/prompt-diary/README.md), built
 * without ../shared so that the rule tests always run.
 */

/** The test project's key (lib/testing/workspace-builder). */
export const PROJECT = TEST_PROJECT_KEY;
/** The label project.json gives the test project. */
export const LABEL = "Demo";

/** The user messages the cards quote, by turn. */
export const QUOTES = {
  "S0001/T0001": "Please simplify the MCP evidence tools and drop chain_ref.",
  "S0001/T0002": "Is that placeholder misleading?",
  "S0002/T0001": "Design the QA approach for evidence extraction.",
} as const;

/** A minimal stored chain for a turn, quoting `quotes` (citations are not checked by synthesis). */
export function storedChain(turnRef: string, quotes: unknown[] = []): Record<string, unknown> {
  return {
    turn_ref: turnRef,
    trigger: { type: "explicit_user_message", summary: `Request of ${turnRef}.`, quoted_messages: quotes, citations: [] },
    agent_reactions: [],
    outcomes: [],
    observed_checks: [],
    terminal_state: { type: "no_material", summary: "Nothing.", citations: [] },
    materiality: "none",
  };
}

const quote = (text: string) => ({ text, citations: [{ lines: "2-2" }] });

/** Writes a card holding `chains` for a session. */
export async function writeCard(root: string, sessionRef: string, chains: unknown[]): Promise<void> {
  const file = evidenceCardPath(projectDir(root, PROJECT), sessionRef);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, `${JSON.stringify({ schema_version: 1, project_key: PROJECT, session_ref: sessionRef, evidence_chains: chains }, null, 2)}\n`);
}

/**
 * The basic workspace. S0001's card lists T0002 before T0001 (order must not matter) and has an
 * empty and a non-string quote; S0002's card quotes one message. S0001/T0003 has no chain.
 */
export async function buildBasicWorkspace(): Promise<string> {
  const root = await buildTestWorkspace([
    { ref: "S0001", content: userLines(15), turns: spans([2, 8], [9, 12], [13, 15]) },
    { ref: "S0002", content: userLines(6), turns: spans([2, 6]) },
  ]);
  await writeCard(root, "S0001", [storedChain("T0002", [quote(QUOTES["S0001/T0002"]), { text: "" }, { text: 7 }]), storedChain("T0001", [quote(QUOTES["S0001/T0001"])]), "not a chain"]);
  await writeCard(root, "S0002", [storedChain("T0001", [quote(QUOTES["S0002/T0001"])])]);
  return root;
}

/** Index turns from `[start, end]` pairs: T0001, T0002, … */
export function spans(...pairs: [number, number][]): IndexTurn[] {
  return pairs.map(([start, end], i) => ({ turn_ref: `T${String(i + 1).padStart(4, "0")}`, turn_start_line: start, turn_end_line: end }));
}

/** Absolute path of the envelope in a test workspace. */
export const envelopeFile = (root: string, projectKey = PROJECT): string => synthesisPath(projectDir(root, projectKey));

/** The envelope's bytes, or null when absent. */
export const envelopeBytes = (root: string): Promise<Buffer | null> => fs.readFile(envelopeFile(root)).catch(() => null);

/** `{session_ref, turn_ref}` from `"S0001/T0001"`. */
export function turn(key: string): { session_ref: string; turn_ref: string } {
  const [session_ref = "", turn_ref = ""] = key.split("/");
  return { session_ref, turn_ref };
}

/** A valid material_work_item covering `keys` and citing each of them. */
export function materialItem(ref: string, ...keys: string[]): Record<string, unknown> {
  const refs = keys.map(turn);
  return {
    work_item_ref: ref,
    kind: "material_work_item",
    title: `Work of ${keys.join(", ")}`,
    covered_turns: refs,
    trigger: { summary: "User asked for the work.", evidence_refs: refs },
    agent_reaction: { summary: "Agent did the work.", main_actions: ["edited the docs"] },
    outcomes: [{ category: "document_outcome", summary: "Docs updated.", evidence_refs: refs, confidence: "high" }],
    terminal_states: [{ type: "material_result", summary: "Done.", evidence_refs: refs }],
    limits: ["Tests not confirmed."],
    confidence: "high",
  };
}

/** A valid item without narrative: no_material_work_item, evidence_gap_item or excluded_with_reason. */
export function plainItem(kind: "no_material_work_item" | "evidence_gap_item" | "excluded_with_reason", ref: string, ...keys: string[]): Record<string, unknown> {
  return {
    work_item_ref: ref,
    kind,
    title: `${kind} over ${keys.join(", ")}`,
    covered_turns: keys.map(turn),
    outcomes: [],
    terminal_states: [],
    limits: [],
    ...(kind === "excluded_with_reason" ? { reason: "Out of scope for the report." } : {}),
    confidence: "low",
  };
}
