import fs from "node:fs/promises";
import path from "node:path";

import { afterEach, describe, expect, it, vi } from "vitest";

import { createCoreContext } from "@/lib/context";
import { CORPUS_SOURCE, corpusSessions, corpusWorkspace } from "@/lib/ledger/__fixtures__/corpus-workspace";
import { getLedger } from "@/lib/ledger/ledger-store";
import { startWorker, untilOutput } from "@/lib/testing/bundle-worker";
import { HAS_SHARED, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { callTool } from "@/lib/tools/registry";
import { prepareWorkspace } from "@/lib/workspace/prepare";
import { runAudit } from "@/server/cli/audit-command";

/*
 * `casefile audit verify` and `casefile audit tail` (issue 8, Build 4) on a workspace prepared
 * from the real corpus. verify runs in-process (its output captured); tail is a real CLI process
 * followed through its printed lines, never through sleeps.
 */

const TSX = path.resolve("node_modules/tsx/dist/cli.mjs");
const CLI = path.resolve("server/cli/main.ts");

/** Runs `audit <sub>` in-process; returns its exit code and what it printed. */
async function audit(root: string, sub: string, json: boolean): Promise<{ code: number; out: string }> {
  let out = "";
  const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    out += chunk.toString();
    return true;
  });
  try {
    return { code: await runAudit(root, sub, json), out };
  } finally {
    spy.mockRestore();
  }
}

afterEach(() => vi.restoreAllMocks());

describe.skipIf(!HAS_SHARED)(`casefile audit${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  it("verify exits 0 on an intact ledger, and 1 naming each finding (tampered blob, torn line) in text and --json", async () => {
    const root = await corpusWorkspace();
    const { projectKey, sessions } = await corpusSessions(root);
    const ctx = createCoreContext(root);
    const calls = sessions.slice(0, 3);
    for (const s of calls) await callTool(ctx, "read_session_lines", { project_key: projectKey, session_ref: s.ref, start_line: 1, end_line: 2 }, { door: "cli" });
    const intact = await audit(root, "verify", false);
    expect(intact.code).toBe(0);
    expect(intact.out).toMatch(new RegExp(`^audit ledger intact: ${calls.length * 2} entries, ${calls.length} calls, 0 segments, \\d+ blobs\n  hash chain intact: ${calls.length * 2} chained entries, head [0-9a-f]{64}\n$`));
    const anchor = await audit(root, "anchor", false);
    expect(anchor.code).toBe(0);
    expect(anchor.out).toMatch(new RegExp(`^[0-9a-f]{64}  ${calls.length * 2} entries  \\S+\n$`));
    expect(intact.out).toContain(anchor.out.slice(0, 64));

    const ledger = getLedger(root);
    const index = await ledger.read();
    const started = index.entries.find((e) => e.entry.kind === "tool_call_started")!.entry;
    const inputRef = started.kind === "tool_call_started" ? started.input_ref : "";
    await fs.writeFile(path.join(ledger.paths.root, inputRef), "{}");
    await fs.appendFile(ledger.paths.active, '{"schema_version":1,"kind":"tool_call_st');

    const text = await audit(root, "verify", false);
    expect(text.code).toBe(1);
    expect(text.out).toContain("audit ledger has 2 problem(s)");
    // A torn tail a dying writer left is no entry of the chain: the chain itself still holds.
    expect(text.out).toContain(`hash chain intact: ${calls.length * 2} chained entries`);
    expect(text.out).toContain(`blob_hash ${inputRef}: blob ${inputRef} does not recompute to its name`);
    expect(text.out).toMatch(/torn_line tool-traces\.jsonl: the last line is unterminated \(40 bytes at offset \d+\)/);
    const json = await audit(root, "verify", true);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toMatchObject({ ok: false, findings: [expect.objectContaining({ kind: "torn_line" }), expect.objectContaining({ kind: "blob_hash", file: inputRef })] });
  });

  it("tail prints the last entries, then follows new calls as they are made", { timeout: 300_000 }, async () => {
    const root = await corpusWorkspace();
    const { projectKey, sessions } = await corpusSessions(root);
    const ctx = createCoreContext(root);
    await callTool(ctx, "list_projects", {}, { door: "http" });
    const tail = startWorker(TSX, [CLI, "audit", "tail", "--workspace", root]);
    try {
      // The existing call first (a generous bound for tsx's start-up on a loaded runner).
      await untilOutput(tail, "list_projects  workspace", 240_000);
      await callTool(ctx, "read_session_lines", { project_key: projectKey, session_ref: sessions[0]!.ref, start_line: 1, end_line: 1 }, { door: "mcp", client: "tail-test" });
      await untilOutput(tail, `success mcp  read_session_lines  ${projectKey}/${sessions[0]!.ref}`);
      const lines = tail.stdout().trim().split("\n");
      expect(lines).toHaveLength(4);
      expect(lines[2]).toMatch(new RegExp(`start +mcp +read_session_lines +${projectKey}/${sessions[0]!.ref}`));
      expect(tail.stderr()).toBe("");
    } finally {
      tail.child.kill("SIGTERM");
      await tail.closed;
    }
  });

  it("prepare --force rebuilds the workspace and never deletes the ledger", async () => {
    const root = await corpusWorkspace();
    const ctx = createCoreContext(root);
    await callTool(ctx, "list_projects", {}, { door: "cli" });
    const before = await fs.readFile(getLedger(root).paths.active, "utf8");
    await prepareWorkspace(ctx, { claudeRoots: [CORPUS_SOURCE], force: true });
    expect(await fs.readFile(getLedger(root).paths.active, "utf8")).toBe(before);
    const after = await audit(root, "verify", false);
    expect(after.code).toBe(0);
  });
});
