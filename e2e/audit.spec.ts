import { dropChains, findWorkspaceSession, writeEvidenceWithCli } from "./evidence-workspace";
import { expect, test } from "./fixtures";
import { EvidencePanel } from "./pages/evidence-panel";
import { AUDIT_TURN, HAS_CORPUS, LONG_SESSION, NO_CORPUS_REASON } from "./paths";

/*
 * Issue 8, "Done when" (Playwright): a write through the CLI appears on the open Audit page
 * within 2 s (pushed over /api/events); its detail shows the exact input, hash verified; the
 * session page shows who wrote the chain.
 */
test.describe("audit ledger in the dashboard", () => {
  test.skip(!HAS_CORPUS, NO_CORPUS_REASON);

  test("a CLI write shows live on the Audit page, with its input, and as 'written by' on the session", async ({ page }) => {
    test.setTimeout(120_000);
    const session = findWorkspaceSession(LONG_SESSION.sourceSessionId);
    dropChains(session, [AUDIT_TURN]);
    const turn = session.turns.find((t) => t.turn_ref === AUDIT_TURN)!;
    const all = { lines: `${turn.turn_start_line}-${turn.turn_end_line}` };
    const chain = {
      turn_ref: AUDIT_TURN,
      trigger: { type: "explicit_user_message", summary: "Audit spec: the user asks.", quoted_messages: [], citations: [{ lines: `${turn.turn_start_line}-${turn.turn_start_line}` }] },
      agent_reactions: [{ summary: "The agent works on it.", citations: [all] }],
      outcomes: [],
      observed_checks: [],
      terminal_state: { type: "clarification_only", summary: "Scope was clarified.", citations: [all] },
      materiality: "minor",
    };

    await page.goto("/audit");
    const table = page.getByRole("table", { name: "Tool calls" });
    await expect(table).toBeVisible();
    await page.getByRole("combobox", { name: "Tool", exact: true }).selectOption("write_evidence");
    const task = `${session.projectKey}/${session.sessionRef}`;

    expect(writeEvidenceWithCli(session, chain).status).toBe("appended");
    const row = table.getByRole("row").filter({ hasText: task }).filter({ hasText: "cli" }).first();
    await expect(row).toBeVisible({ timeout: 2_000 });
    await expect(row).toContainText("success");

    await row.click();
    const detail = page.getByRole("complementary", { name: "Call detail" });
    const input = detail.getByRole("region", { name: "Input" });
    await expect(input).toContainText("hash verified");
    await expect(input).toContainText("Audit spec: the user asks.");
    await expect(detail.getByRole("region", { name: "Policy decisions" })).toContainText("path.containment");
    await expect(detail).toContainText(`evidence/${session.sessionRef}.json`);
    await page.screenshot({ path: "e2e/.tmp/audit-page.png" });

    await page.goto(session.url);
    const ev = new EvidencePanel(page);
    await ev.expandTurn(AUDIT_TURN);
    await expect(ev.turn(AUDIT_TURN).getByLabel("Written by")).toContainText("Written by cli via write_evidence");
  });
});
