import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

import { describe, expect, it } from "vitest";

import { buildTestWorkspace, TEST_PROJECT_KEY, userLines } from "@/lib/testing/workspace-builder";

const run = promisify(execFile);
const TSX = path.resolve("node_modules/tsx/dist/cli.mjs");
const CLI = path.resolve("server/cli/main.ts");

describe("CASEFILE_DATABASE_URL belongs to the team server's commands (issue 39)", { timeout: 120_000 }, () => {
  it("a local command keeps its workspace's SQLite catalog when the variable is exported (it never reaches the team database)", async () => {
    const root = await buildTestWorkspace([{ ref: "S0001", content: userLines(4), turns: [{ turn_ref: "T0001", turn_start_line: 1, turn_end_line: 4 }] }]);
    // A database no one can reach: a command that used it would fail with io_error.
    const env = { ...process.env, CASEFILE_DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" };
    const { stdout } = await run(process.execPath, [TSX, CLI, "tool", "list_sessions", JSON.stringify({ project_key: TEST_PROJECT_KEY }), "--workspace", root], { env });
    expect(JSON.parse(stdout)).toMatchObject({ status: "ok", total: 1, sessions: [{ session_ref: "S0001" }] });
  });

  it("token still uses it, and says which database it could not reach", async () => {
    const env = { ...process.env, CASEFILE_DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" };
    const failed = await run(process.execPath, [TSX, CLI, "token", "list"], { env }).then(() => null, (error: { code: number; stderr: string }) => error);
    expect(failed?.code).not.toBe(0);
    expect(failed?.stderr).toMatch(/127\.0\.0\.1:1/);
  });
});
