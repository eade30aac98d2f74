#!/usr/bin/env node
// Runs the TypeScript CLI so `npx casefile` and `npm link` work from a checkout, in this one process:
// from its esbuild bundle (node_modules/.cache/casefile-workers/casefile-cli/main.mjs) while every file it
// was made from is unchanged, else through tsx's loader, bundling it first for the next run
// (lib/jsonl/workers `bundledEntry`). A push starts in ~0.2 s instead of ~0.45 s (tsx's own CLI: three processes).
// `casefile start` is npm start's own launcher (scripts/start.mjs), run without either: no tsx
// stays beside the dashboard for its whole life (issue 36 item 3).
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const main = path.join(root, "server", "cli", "main.ts");
const BUNDLE = path.join(root, "node_modules", ".cache", "casefile-workers", "casefile-cli");

/** Whether the CLI's bundle exists and every input it lists has the size and mtime it was made from (workers.ts `unchanged`). */
function bundleFresh() {
  try {
    const { inputs } = JSON.parse(readFileSync(`${BUNDLE}.inputs.json`, "utf8"));
    if (!statSync(`${BUNDLE}/main.mjs`, { throwIfNoEntry: false })) return false;
    return inputs.every((input) => {
      const st = statSync(input.file, { throwIfNoEntry: false });
      return st !== undefined && st.size === input.size && st.mtimeMs === input.mtimeMs;
    });
  } catch {
    return false;
  }
}

let script;
if (process.argv[2] === "start") script = path.join(root, "scripts", "start.mjs");
else if (process.env.CASEFILE_CLI_BUNDLE !== "0" && bundleFresh()) script = `${BUNDLE}/main.mjs`;
else {
  const { register } = await import("tsx/esm/api");
  register({ tsconfig: path.join(root, "tsconfig.json") });
  script = main;
  if (process.env.CASEFILE_CLI_BUNDLE !== "0") {
    const { bundledEntry } = await import(pathToFileURL(path.join(root, "lib", "jsonl", "workers.ts")).href);
    script = (await bundledEntry(main, "casefile-cli")) ?? main;
    // esbuild's service process would otherwise stay beside a long-running command (mcp, serve).
    await import("esbuild").then(({ stop }) => stop()).catch(() => undefined);
  }
}
process.argv = [process.argv[0], script, ...process.argv.slice(process.argv[2] === "start" ? 3 : 2)];
await import(pathToFileURL(script).href);
