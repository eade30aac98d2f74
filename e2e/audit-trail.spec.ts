import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmdirSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import { findWorkspaceSession } from "./evidence-workspace";
import { expect, test } from "./fixtures";
import { HAS_CORPUS, LONG_SESSION, NO_CORPUS_REASON, REPO_ROOT, WORKSPACE_DIR } from "./paths";

/*
 * Issue 26 in the dashboard: a session whose evidence file is symlinked out of the workspace
 * shows a clear error page (never a 500); a blob removed by `casefile audit prune` shows as
 * "pruned" in the Audit page's call detail.
 */

const cli = (...args: string[]): string =>
  execFileSync("npx", ["tsx", "server/cli/main.ts", ...args, "--workspace", path.relative(REPO_ROOT, WORKSPACE_DIR)], { cwd: REPO_ROOT, encoding: "utf8", timeout: 60_000 });

test.describe("audit trail hardening in the dashboard", () => {
  test.skip(!HAS_CORPUS, NO_CORPUS_REASON);

  test("an evidence file symlinked out of the workspace gives a clear error page, not a 500", async ({ page }) => {
    const session = findWorkspaceSession(LONG_SESSION.sourceSessionId);
    const backup = `${session.cardPath}.e2e-backup`;
    const had = existsSync(session.cardPath);
    const hadDir = existsSync(path.dirname(session.cardPath));
    if (had) renameSync(session.cardPath, backup);
    mkdirSync(path.dirname(session.cardPath), { recursive: true });
    const outside = path.join(mkdtempSync(path.join(os.tmpdir(), "casefile-e2e-outside-")), "card.json");
    writeFileSync(outside, "{}");
    symlinkSync(outside, session.cardPath);
    try {
      const response = await page.goto(session.url);
      expect(response!.status()).toBeLessThan(500);
      const panel = page.getByTestId("tool-error");
      await expect(panel).toContainText("This session's evidence file cannot be read");
      await expect(panel).toContainText("resolves outside");
    } finally {
      unlinkSync(session.cardPath);
      if (had) renameSync(backup, session.cardPath);
      if (!hadDir) rmdirSync(path.dirname(session.cardPath));
    }
  });

  test("a pruned input blob shows as pruned in the call detail", async ({ page }) => {
    test.setTimeout(120_000);
    const maxEntries = 1 + Math.floor(Math.random() * 999);
    cli("tool", "query_ledger_full", JSON.stringify({ ledger: "audit", max_entries: maxEntries, tool_name: "e2e-prune" }));
    const active = path.join(WORKSPACE_DIR, "audit", "traces", "tool-traces.jsonl");
    const started = readFileSync(active, "utf8")
      .split("\n")
      .filter((l) => l.includes('"tool_call_started"') && l.includes('"query_ledger_full"'))
      .map((l) => JSON.parse(l) as { input_hash: string; receipt_id: string })
      .at(-1)!;
    const old = new Date(Date.now() - 40 * 86_400_000);
    utimesSync(path.join(WORKSPACE_DIR, "audit", "inputs", started.input_hash), old, old);
    expect(cli("audit", "prune", "--older-than", "30d")).toMatch(/^pruned [1-9]\d* blob\(s\)/);

    await page.goto("/audit");
    const table = page.getByRole("table", { name: "Tool calls" });
    await page.getByRole("combobox", { name: "Tool", exact: true }).selectOption("query_ledger_full");
    await table.getByRole("row").filter({ hasText: "cli" }).first().click();
    const input = page.getByRole("complementary", { name: "Call detail" }).getByRole("region", { name: "Input" });
    await expect(input).toContainText("pruned");
    await expect(input).not.toContainText("blob missing");
  });
});
