#!/usr/bin/env node
// Runs the TypeScript CLI in this process through tsx's loader, so `npx casefile` and `npm link` work
// from a checkout: one Node process (tsx's own CLI would start two more; a push's start-up halves).
// `casefile start` is npm start's own launcher (scripts/start.mjs), run in this process without the
// loader: no tsx stays beside the dashboard for its whole life (issue 36 item 3).
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const script = process.argv[2] === "start" ? path.join(root, "scripts", "start.mjs") : path.join(root, "server", "cli", "main.ts");
if (process.argv[2] === "start") process.argv = [process.argv[0], script, ...process.argv.slice(3)];
else {
  const { register } = await import("tsx/esm/api");
  register({ tsconfig: path.join(root, "tsconfig.json") });
  process.argv = [process.argv[0], script, ...process.argv.slice(2)];
}
await import(pathToFileURL(script).href);
