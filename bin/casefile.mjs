#!/usr/bin/env node
// Runs the TypeScript CLI through tsx so `npx casefile` and `npm link` work from a checkout.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const tsx = path.join(root, "node_modules", "tsx", "dist", "cli.mjs");
const result = spawnSync(process.execPath, [tsx, "--tsconfig", path.join(root, "tsconfig.json"), path.join(root, "server", "cli", "main.ts"), ...process.argv.slice(2)], {
  stdio: "inherit",
});
process.exit(result.status ?? 1);
