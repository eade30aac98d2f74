#!/usr/bin/env node
/**
 * Builds the dashboard (`next build`) quietly, then the CLI's bundle (a `casefile --help`): a line
 * before and one after, the build's own output only when it fails (issue 36 item 3: no screens of warnings a user cannot act on); it
 * is kept in .next/build.log either way.
 * Type checking is `npm test`'s job (`tsc --noEmit`): this build skips it (CASEFILE_SKIP_TYPECHECK=1,
 * next.config.mjs), as the first `casefile serve` always did (issue 29).
 *
 *   node scripts/build-app.mjs            build now (`npm start` / `casefile serve` when there is no build)
 *   node scripts/build-app.mjs --install  npm's `prepare`, after `npm ci` / `npm install` in this
 *                                         checkout: the app is built at install, so the first
 *                                         `npm start` serves at once. Skipped when CI is set
 *                                         (`npm test` builds for its e2e suite), when
 *                                         CASEFILE_SKIP_BUILD=1, or when npm runs outside this
 *                                         checkout; a failed build does not fail the install
 *                                         (`npm start` builds again and shows why).
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const install = process.argv.includes("--install");
const flag = (value) => value !== undefined && value !== "" && value !== "0" && value.toLowerCase() !== "false";

if (install && (flag(process.env.CI) || flag(process.env.CASEFILE_SKIP_BUILD) || (process.env.INIT_CWD && path.resolve(process.env.INIT_CWD) !== root))) {
  process.exit(0);
}

const started = Date.now();
process.stderr.write(`building the dashboard${install ? "" : " (first run only)"}: a few minutes…\n`);
const next = spawn(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"], {
  cwd: root,
  env: { ...process.env, CASEFILE_SKIP_TYPECHECK: "1" },
  stdio: ["ignore", "pipe", "pipe"],
});
const output = [];
next.stdout.on("data", (chunk) => output.push(chunk));
next.stderr.on("data", (chunk) => output.push(chunk));
const code = await new Promise((resolve) => {
  next.on("error", (error) => {
    output.push(Buffer.from(`${error.message}\n`));
    resolve(1);
  });
  next.on("close", (status) => resolve(status ?? 1));
});
const log = path.join(root, ".next", "build.log");
try {
  writeFileSync(log, Buffer.concat(output));
} catch {
  /* no .next folder: the build failed before making it */
}
if (code === 0) {
  process.stderr.write(`dashboard built in ${Math.round((Date.now() - started) / 1000)} s (its output: ${path.relative(process.cwd(), log) || log})\n`);
  // The CLI's bundle too (bin/casefile.mjs makes it on a run that finds it missing or stale): the first `casefile` command then starts at once.
  await new Promise((resolve) => spawn(process.execPath, [path.join(root, "bin", "casefile.mjs"), "--help"], { cwd: root, stdio: "ignore" }).on("close", resolve).on("error", resolve));
} else {
  process.stderr.write(Buffer.concat(output).toString("utf8"));
  process.stderr.write(`the dashboard build failed (exit ${code})${install ? "; the install itself is complete, and npm start will build again" : ""}\n`);
}
process.exitCode = install ? 0 : code;
