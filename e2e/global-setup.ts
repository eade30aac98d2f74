import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

import { generateDemoSources } from "../lib/demo/generate-demo";
import { EDGE_CASES_DIR, MANY_SESSIONS_DIR, writeEdgeCaseSession, writeManySessions } from "./fixtures/make-edge-cases";
import { READER_CASES_DIR, writeReaderSession } from "./fixtures/make-reader-case";
import { claudeLines } from "../lib/testing/transcripts";
import { AGENT_ROOTS, CODEX_CORPUS_DIR, CORPUS_DIR, HAS_AGENTS_HOME, DEMO_SOURCES_DIR, HAS_CODEX_CORPUS, HAS_CORPUS, LIVE_PROJECT, LIVE_SESSION_ID, LIVE_SOURCES_DIR, NO_CORPUS_REASON, REPO_ROOT, WORKSPACE_DIR } from "./paths";

/**
 * Generates the fixtures and prepares the workspace with the real CLI.
 * NOTE: Playwright starts webServer *before* globalSetup. That is fine: the server reads the
 * workspace lazily per request (revalidated by mtime), and this finishes before the first test.
 * prepare records its roots as the workspace's sources, so the server's source watcher syncs
 * what daily.spec.ts writes into LIVE_SOURCES_DIR while it runs.
 */
export default async function globalSetup(): Promise<void> {
  writeEdgeCaseSession();
  writeManySessions();
  writeReaderSession();
  // The demo transcripts (two small projects) are the synthesis spec's own: no other spec uses them.
  await generateDemoSources(DEMO_SOURCES_DIR);

  rmSync(LIVE_SOURCES_DIR, { recursive: true, force: true });
  mkdirSync(path.join(LIVE_SOURCES_DIR, LIVE_PROJECT.dirName), { recursive: true });
  writeFileSync(path.join(LIVE_SOURCES_DIR, LIVE_PROJECT.dirName, `${LIVE_SESSION_ID}.jsonl`), claudeLines(LIVE_SESSION_ID, LIVE_PROJECT.cwd, 1));

  const rel = (p: string) => path.relative(REPO_ROOT, p);
  const sources = [...(HAS_CORPUS ? [CORPUS_DIR] : []), EDGE_CASES_DIR, MANY_SESSIONS_DIR, READER_CASES_DIR, DEMO_SOURCES_DIR, LIVE_SOURCES_DIR].flatMap((dir) => ["--claude", rel(dir)]);
  if (HAS_CODEX_CORPUS) sources.push("--codex", rel(CODEX_CORPUS_DIR));
  if (HAS_AGENTS_HOME) for (const [flag, root] of Object.entries(AGENT_ROOTS)) sources.push(`--${flag}`, rel(root));
  if (!HAS_CORPUS) console.warn(`[e2e] corpus specs will skip: ${NO_CORPUS_REASON}`);

  execFileSync("npx", ["tsx", "server/cli/main.ts", "prepare", "--workspace", rel(WORKSPACE_DIR), ...sources, "--force", "--json"], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "ignore", "inherit"],
    timeout: 300_000,
  });
}
