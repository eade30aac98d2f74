#!/usr/bin/env node
// Runs the TypeScript CLI through tsx so `npx casefile` and `npm link` work from a checkout.
// `casefile start` is npm start's own launcher (scripts/start.mjs), run in this process: no tsx
// parent stays beside the dashboard for its whole life (issue 36 item 3).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
if (process.argv[2] === "start") {
  const start = path.join(root, "scripts", "start.mjs");
  process.argv = [process.argv[0], start, ...process.argv.slice(3)];
  await import(pathToFileURL(start).href);
} else {
  const tsx = path.join(root, "node_modules", "tsx", "dist", "cli.mjs");
  const result = spawnSync(process.execPath, [tsx, "--tsconfig", path.join(root, "tsconfig.json"), path.join(root, "server", "cli", "main.ts"), ...process.argv.slice(2)], {
    stdio: "inherit",
  });
  process.exit(result.status ?? 1);
}
