/** Test access to `../shared` (corpus, fixtures) and temp folders. */
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/** `../shared` beside the checkout: corpus, fixtures, contracts (read-only). */
export const SHARED_DIR = path.resolve(process.cwd(), "../shared");
export const HAS_SHARED = existsSync(path.join(SHARED_DIR, "corpus"));
export const SKIP_SHARED_MESSAGE = "../shared (corpus and fixtures) is not present beside the checkout; skipping";

/** A fresh temp directory for one test. */
export function makeTempDir(prefix = "casefile-"): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), prefix));
}

/** Copies a prompt-diary fixture workspace (path under fixtures/prompt-diary) into a temp dir. */
export async function copyFixtureWorkspace(relative: string): Promise<string> {
  const dir = await makeTempDir("casefile-ws-");
  await fs.cp(path.join(SHARED_DIR, "fixtures", "prompt-diary", relative), dir, { recursive: true });
  return dir;
}
