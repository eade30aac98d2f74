import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { createCoreContext, stderrLogger } from "@/lib/context";
import { generateDemoSources } from "@/lib/demo/generate-demo";
import { prepareWorkspace } from "@/lib/workspace/prepare";
import { defaultClaudeRoots, defaultCodexRoots, renderSummary } from "@/server/cli/prepare-command";

const APP_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * `casefile serve`: serves the dashboard for a workspace on 127.0.0.1:<port> with
 * `next start`, building the app first when no production build exists.
 * Resolves with the server's exit code.
 */
export async function runServe(workspace: string, port: number): Promise<number> {
  const env = { ...process.env, CASEFILE_WORKSPACE: workspace };
  if (!existsSync(path.join(APP_DIR, ".next", "BUILD_ID"))) {
    process.stderr.write("building the dashboard (first run only)…\n");
    const built = await run(nextBin(), ["build"], env);
    if (built !== 0) return built;
  }
  process.stderr.write(`Casefile dashboard: http://127.0.0.1:${port}  (workspace ${workspace})\n`);
  return run(nextBin(), ["start", "--hostname", "127.0.0.1", "--port", String(port)], env);
}

/**
 * `casefile start` (`npm start`): prepares the workspace when it has no metadata.json, from
 * `~/.claude/projects` and `~/.codex/sessions` / `~/.codex/archived_sessions` (`$CODEX_HOME`),
 * those that exist, otherwise from a generated demo transcript set, then serves it.
 */
export async function runStart(workspace: string, port: number): Promise<number> {
  if (!existsSync(path.join(workspace, "metadata.json"))) {
    let claudeRoots = defaultClaudeRoots();
    const codexRoots = defaultCodexRoots();
    if (claudeRoots.length + codexRoots.length === 0) {
      const demoDir = path.join(os.homedir(), ".casefile", "demo-sources");
      await generateDemoSources(demoDir);
      claudeRoots = [demoDir];
      process.stderr.write(`no ~/.claude/projects or ~/.codex/sessions found: preparing the demo transcripts in ${demoDir}\n`);
    }
    const ctx = createCoreContext(workspace, { log: stderrLogger });
    process.stderr.write(renderSummary(await prepareWorkspace(ctx, { claudeRoots, codexRoots })));
  }
  return runServe(workspace, port);
}

function nextBin(): string {
  return path.join(APP_DIR, "node_modules", "next", "dist", "bin", "next");
}

function run(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: APP_DIR, env, stdio: "inherit" });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    process.once("SIGINT", forward);
    process.once("SIGTERM", forward);
    child.on("error", reject);
    child.on("exit", (code) => resolve(code ?? 1));
  });
}
