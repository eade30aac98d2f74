import { expect, test } from "./fixtures";
import { CODEX_CORPUS_DIR, CODEX_SESSION, HAS_CODEX_CORPUS } from "./paths";

test.describe("Codex session in the viewer", () => {
  test.skip(!HAS_CODEX_CORPUS, `needs the shared Codex corpus at ${CODEX_CORPUS_DIR}`);

  test("marks its turns and shows tool calls readably", async ({ page, viewerPage }) => {
    await page.goto(`/projects/${CODEX_SESSION.projectKey}/sessions/${CODEX_SESSION.sessionRef}#L22-L27`);
    await viewerPage.waitForLoaded(22);
    const turns = page.getByRole("navigation", { name: "Turns" });
    await expect(turns.getByRole("button", { name: /T0001/ })).toContainText("L6–19");
    await expect(turns.getByRole("button", { name: /T0002/ })).toContainText("L22–386");
    await expect(viewerPage.row(22)).toContainText("T0002");
    await expect(viewerPage.row(22)).toContainText("User message.");
    await expect(viewerPage.row(23)).toContainText("Echo of message at line 22.");
    await expect(viewerPage.row(27).getByTestId("record-headline")).toHaveText(/^exec_command\(sed -n '1,220p' /);
    await expect(viewerPage.row(27)).toContainText("exec_command");
    await expect(viewerPage.row(29).getByTestId("record-headline")).toHaveText(/^exec_command\(.+\) → (ok|exit \d+)$/);
    await viewerPage.expectRowBudget();
  });
});
