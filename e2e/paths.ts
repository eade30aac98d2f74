import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The workspace the e2e server reads (CASEFILE_WORKSPACE), rebuilt by global-setup.ts. */
export const WORKSPACE_DIR = path.join(REPO_ROOT, "e2e", ".tmp", "workspace");
/** Real Claude Code transcripts shared next to the repo; optional. */
export const CORPUS_DIR = path.resolve(REPO_ROOT, "..", "shared", "corpus", "claude-code");
export const HAS_CORPUS = existsSync(CORPUS_DIR);
export const NO_CORPUS_REASON = `needs the shared corpus at ${CORPUS_DIR} (absent: setup prepared e2e/fixtures only)`;

/** The corpus session with 500+ lines (1,863) and two subagent transcripts. */
export const LONG_SESSION = {
  projectLabel: "spotter-gqc",
  sourceSessionId: "258c7280-ae70-4798-800f-63464d01a85d",
} as const;

/** Real Codex rollouts shared next to the repo; optional. */
export const CODEX_CORPUS_DIR = path.resolve(REPO_ROOT, "..", "shared", "corpus", "codex");
export const HAS_CODEX_CORPUS = existsSync(CODEX_CORPUS_DIR);

/**
 * A Codex rollout with two turns (T0001 6-19, T0002 22-386) and exec_command calls. The key's
 * hash comes from its recorded cwd, which does not exist here, so it is the same on every machine.
 */
export const CODEX_SESSION = { projectKey: "codemie-code-dd4d87f781f6", sessionRef: "S0001" } as const;

/**
 * Turns of LONG_SESSION whose evidence chains evidence.spec.ts owns: the reviewer edits the
 * first, a CLI "agent" appends the second. Other specs must not write chains for these turns.
 */
export const EVIDENCE_TURNS = { reviewed: "T0004", appended: "T0005" } as const;
