import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const BIN = path.resolve("bin/casefile.mjs");
const BUNDLE = path.resolve("node_modules/.cache/casefile-workers/casefile-cli");

/** `casefile ARGS` through bin/casefile.mjs: stdout, stderr and the exit code (from another folder, as an installed command runs). */
async function casefile(args: string[], env: Record<string, string> = {}): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { cwd: path.resolve(".."), env: { ...process.env, ...env }, timeout: 60_000 });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}

describe("bin/casefile.mjs (the CLI from its bundle, else through tsx)", () => {
  it("answers from its bundle exactly as through tsx, and lists the bundle's inputs so a changed source rebuilds it", async () => {
    const viaTsx = await casefile(["--help"], { CASEFILE_CLI_BUNDLE: "0" });
    // The first run bundles when the bundle is missing or stale; the second runs it.
    await casefile(["--help"]);
    const viaBundle = await casefile(["--help"]);
    expect(viaTsx.code).toBe(0);
    expect(viaBundle).toEqual(viaTsx);
    const inputs = (JSON.parse(readFileSync(`${BUNDLE}.inputs.json`, "utf8")) as { inputs: { file: string }[] }).inputs.map((i) => i.file);
    expect(inputs).toEqual(expect.arrayContaining([path.resolve("server/cli/main.ts"), path.resolve("lib/jsonl/workers.ts")]));
  }, 120_000);

  it("refuses a bad command the same way either way (exit 2, the hint)", async () => {
    const viaBundle = await casefile(["no-such-command"]);
    expect(viaBundle.code).toBe(2);
    expect(viaBundle.stderr).toContain("unknown command 'no-such-command'");
    expect(await casefile(["no-such-command"], { CASEFILE_CLI_BUNDLE: "0" })).toEqual(viaBundle);
  }, 120_000);
});
