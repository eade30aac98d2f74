import fs from "node:fs/promises";
import path from "node:path";

import { afterEach, describe, expect, it, vi } from "vitest";

import { createCoreContext } from "@/lib/context";
import { corpusWorkspace } from "@/lib/ledger/__fixtures__/corpus-workspace";
import { getLedger } from "@/lib/ledger/ledger-store";
import { HAS_SHARED, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { callTool } from "@/lib/tools/registry";
import { runAudit } from "@/server/cli/audit-command";

/* `casefile audit prune` (issue 26): its age, the retention file, and its errors. */

afterEach(() => vi.restoreAllMocks());

describe.skipIf(!HAS_SHARED)(`casefile audit prune${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  it("casefile audit prune takes --older-than or the retention file, and refuses a bad age", async () => {
    const root = await corpusWorkspace();
    const ledger = getLedger(root);
    await callTool(createCoreContext(root), "list_projects", {}, { door: "cli" });
    let out = "";
    vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
      out += chunk.toString();
      return true;
    });
    expect(await runAudit(root, "prune", true, { olderThan: "30d" })).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ removed: 0 });
    await expect(runAudit(root, "prune", false, { olderThan: "a month" })).rejects.toMatchObject({ code: "invalid_input" });
    await expect(runAudit(root, "prune", false, {})).rejects.toMatchObject({ code: "invalid_input" });
    await fs.mkdir(path.dirname(ledger.paths.retention), { recursive: true });
    await fs.writeFile(ledger.paths.retention, JSON.stringify({ max_bytes: 1 }));
    out = "";
    expect(await runAudit(root, "prune", false, {})).toBe(0);
    expect(out).toMatch(/^pruned [1-9]\d* blob\(s\)/);
    await fs.writeFile(ledger.paths.retention, JSON.stringify({ max_bytes: -3 }));
    await expect(runAudit(root, "prune", false, {})).rejects.toMatchObject({ code: "invalid_input", message: expect.stringContaining("max_bytes") });
  });
});
