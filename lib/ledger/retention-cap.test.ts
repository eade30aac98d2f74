/** The blob retention cap, enforced after a process's first recorded call. */
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { corpusSessions, corpusWorkspace } from "@/lib/ledger/__fixtures__/corpus-workspace";
import { readPruned } from "@/lib/ledger/blobs";
import { getLedger } from "@/lib/ledger/ledger-store";
import { verifyLedger } from "@/lib/ledger/verify";
import { HAS_SHARED, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { callTool } from "@/lib/tools/registry";

/* The retention cap (.casefile-config/retention.json max_bytes) is applied by recorded calls themselves (issue 26). */

describe.skipIf(!HAS_SHARED)(`the blob size cap${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  it("is enforced after the first recorded call of a process, oldest blobs first, ledger lines untouched", async () => {
    const root = await corpusWorkspace();
    const { projectKey, sessions } = await corpusSessions(root);
    const ledger = getLedger(root);
    await fs.mkdir(ledger.paths.root, { recursive: true });
    await fs.mkdir(path.dirname(ledger.paths.retention), { recursive: true });
    await fs.writeFile(ledger.paths.retention, JSON.stringify({ max_bytes: 1 }));
    await callTool(createCoreContext(root), "read_session_lines", { project_key: projectKey, session_ref: sessions[0]!.ref, start_line: 1, end_line: 2 }, { door: "cli" });
    for (let i = 0; i < 500 && (await readPruned(ledger.paths)).size === 0; i++) await new Promise((r) => setTimeout(r, 10));
    const pruned = await readPruned(ledger.paths);
    expect(pruned.size).toBeGreaterThan(0);
    expect([...pruned.values()].every((r) => r.reason === "max_bytes")).toBe(true);
    expect((await ledger.read()).entries).toHaveLength(2);
    expect(await verifyLedger(ledger.paths)).toMatchObject({ ok: true, chain: { state: "intact" } });
  });
});
