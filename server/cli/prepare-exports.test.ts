import fs from "node:fs/promises";
import path from "node:path";

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { createCoreContext } from "@/lib/context";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { callTool } from "@/lib/tools/registry";
import { loadWorkspace } from "@/lib/workspace/load";
import { runPrepare } from "@/server/cli/prepare-command";

const GOOD = path.join(SHARED_DIR, "corpus/claude-code/phantom-reads/session-examples/2.1.6-good");
const ID = "0357781f-d024-4cef-8496-56501c76afb3";

let stdout: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  stdout = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
});
afterEach(() => stdout.mockRestore());

describe.skipIf(!HAS_SHARED)(`casefile prepare --exports DIR (issue 10, seed 003 Q2) (${HAS_SHARED ? "" : SKIP_SHARED_MESSAGE})`, () => {
  it("pairs an export kept in another folder by Workscope ID, copies it beside its session, reports the rest", async () => {
    const home = await makeTempDir("casefile-prepare-exports-");
    const claude = path.join(home, "claude", "-Users-gray-Projects-claude-bug");
    await fs.mkdir(claude, { recursive: true });
    await fs.cp(path.join(GOOD, `${ID}.jsonl`), path.join(claude, `${ID}.jsonl`));
    await fs.cp(path.join(GOOD, ID), path.join(claude, ID), { recursive: true });
    const exportsDir = path.join(home, "exports");
    await fs.mkdir(exportsDir);
    // Named unlike the session: pairing is by the Workscope ID inside, never by file name.
    await fs.cp(path.join(GOOD, "2.1.6-good.txt"), path.join(exportsDir, "renamed.txt"));
    await fs.writeFile(path.join(exportsDir, "other.txt"), "⏺ Workscope ID: 20991231-235959\n");
    const workspace = path.join(home, "workspace");

    expect(await runPrepare({ workspace, claude: [path.dirname(claude)], exports: [exportsDir], force: false, json: true })).toBe(0);
    const printed = JSON.parse(String(stdout.mock.calls.at(-1)![0])) as { data: { exports: { found: number; paired: number; unpaired: { path: string }[] } } };
    expect(printed.data.exports).toMatchObject({ found: 2, paired: 1, unpaired: [{ path: path.join(exportsDir, "other.txt") }] });

    const ctx = createCoreContext(workspace);
    const project = (await loadWorkspace(ctx)).projects[0]!;
    const a = await callTool(ctx, "analyze_session", { project_key: project.projectKey, session_ref: project.rows[0]!.session_ref }, { door: "cli" });
    expect(a).toMatchObject({ status: "ok", workscope_id: "20260113-095602", export: { file_name: "renamed.txt" }, has_subagents: true });
    const chat = await callTool(ctx, "read_chat_export", { project_key: project.projectKey, session_ref: project.rows[0]!.session_ref }, { door: "http" });
    expect((chat.export as { lines: string[] }).lines.join("\n")).toContain("Workscope ID: 20260113-095602");
  });
});
