import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

import { describe, expect, it } from "vitest";

import { TOOLS } from "@/lib/tools/registry";

const run = promisify(execFile);
const TSX = path.resolve("node_modules/tsx/dist/cli.mjs");
const CLI = path.resolve("server/cli/main.ts");

describe("casefile --help (issue 12, item 3)", () => {
  it("lists the commands and every registered tool, list_projects among them", async () => {
    const { stdout } = await run(process.execPath, [TSX, CLI, "--help"], { timeout: 60_000 });
    expect(stdout).toContain("casefile sources add");
    expect(stdout).toMatch(/^Tools \(casefile tool <name>/m);
    for (const tool of TOOLS) expect(stdout).toMatch(new RegExp(`^  ${tool.name} `, "m"));
    expect(stdout).toMatch(/^ {2}list_projects +read-only/m);
  }, 90_000);
});
