import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

import { mergeScripts, scriptSession, writeControlPlaneRoot } from "../lib/testing/control-plane-builder";
import { expect, test } from "./fixtures";
import { REPO_ROOT, WORKSPACE_DIR } from "./paths";

/*
 * Issue 11, "Done when" (Playwright): a Control Plane root registered with
 * `casefile prepare --control-plane ROOT` shows up as a project; its page lists the ho2m sessions
 * and a green or red integrity badge per ledger; a session opens as the overview (about first)
 * and the merged Timeline; a Timeline row opens its line in the ledger viewer.
 * Two roots built here with the LedgerClient serialization: cp-healthy, and cp-tampered whose
 * ho2m.jsonl has one byte changed on line 3.
 */
const TMP = path.join(REPO_ROOT, "e2e", ".tmp", "control-plane");
const HEALTHY = path.join(TMP, "cp-healthy");
const TAMPERED = path.join(TMP, "cp-tampered");
const SESSION = "SES-E2E00001";

function register(root: string): string {
  const out = execFileSync("npx", ["tsx", "server/cli/main.ts", "prepare", "--workspace", WORKSPACE_DIR, "--control-plane", root, "--json"], { cwd: REPO_ROOT, encoding: "utf8", timeout: 120_000 });
  const data = (JSON.parse(out) as { data: { control_plane: { project_key: string }[] } }).data;
  return data.control_plane[0]!.project_key;
}

let healthyKey = "";
let tamperedKey = "";

test.beforeAll(async () => {
  rmSync(TMP, { recursive: true, force: true });
  const spec = mergeScripts(
    scriptSession({
      sessionId: SESSION,
      start: 0,
      budgetWarning: "Budget low: 1200 remaining",
      turns: [
        { user: "what frameworks are installed?", response: "FMWK-000 and FMWK-001.", woType: "classify", tool: { id: "list_frameworks", ok: true } },
        { user: "show me turn events", response: "Here they are.", tool: { id: "query_ledger", ok: true } },
      ],
    }),
    scriptSession({ sessionId: "SES-E2E00002", start: 500, turns: [{ user: "hello", response: "Hi!" }], end: "none" }),
  );
  await writeControlPlaneRoot(HEALTHY, spec);
  await writeControlPlaneRoot(TAMPERED, spec);
  const ho2m = path.join(TAMPERED, "HO2", "ledger", "ho2m.jsonl");
  const lines = readFileSync(ho2m, "utf8").split("\n");
  lines[2] = lines[2]!.replace('"decision": "', '"decision": "X');
  writeFileSync(ho2m, lines.join("\n"));
  healthyKey = register(HEALTHY);
  tamperedKey = register(TAMPERED);
});

test.describe("Control Plane project", () => {
  test("is listed, shows sessions and a badge per ledger", async ({ page }) => {
    await page.goto("/");
    const row = page.getByRole("row", { name: /cp-healthy/ });
    await expect(row).toContainText("Control Plane ledgers");
    await row.getByRole("link", { name: "cp-healthy" }).click();

    await expect(page.getByRole("heading", { level: 1, name: "cp-healthy" })).toBeVisible();
    await expect(page).toHaveTitle(/cp-healthy/);
    const sessions = page.getByRole("table", { name: "Control Plane sessions" });
    await expect(sessions.getByRole("row")).toHaveCount(3);
    await expect(sessions.getByRole("row", { name: new RegExp(SESSION) })).toContainText("completed");
    await expect(sessions.getByRole("row", { name: /SES-E2E00002/ })).toContainText("active");
    for (const ledger of ["governance", "ho2m", "ho1m"]) {
      await expect(page.locator(`[data-testid="ledger-integrity"][data-ledger="${ledger}"]`)).toHaveAttribute("data-status", "ok");
    }
    await page.screenshot({ path: path.join(TMP, "project.png"), fullPage: true });
  });

  test("a tampered ledger is red and names its first broken line", async ({ page }) => {
    await page.goto(`/projects/${encodeURIComponent(tamperedKey)}`);
    const ho2m = page.locator('[data-testid="ledger-integrity"][data-ledger="ho2m"]');
    await expect(ho2m).toHaveAttribute("data-status", "broken");
    await expect(ho2m).toContainText("First broken: ho2m.jsonl:3 — hash_mismatch");
    await expect(page.locator('[data-testid="ledger-integrity"][data-ledger="governance"]')).toHaveAttribute("data-status", "ok");
    await ho2m.getByRole("link", { name: /First broken/ }).click();
    await expect(page.getByTestId("ledger-verdict")).toHaveText(/broken at ho2m\.jsonl:3/);
    await expect(page.locator('li[data-line="3"]')).toContainText("hash_mismatch");
    await page.screenshot({ path: path.join(TMP, "ledger-broken.png"), fullPage: true });
  });

  test("a session opens as overview and Timeline; a row opens its ledger line", async ({ page }) => {
    await page.goto(`/projects/${encodeURIComponent(healthyKey)}`);
    await page.getByRole("link", { name: SESSION }).click();
    await expect(page.getByTestId("session-about")).toHaveText(
      'User started with "what frameworks are installed?" and the session ran 2 turns. Work was split between classify and synthesize (1 each of 2 work orders). Tools used: list_frameworks (1×), query_ledger (1×). 1 warning occurred. Session ended cleanly.',
    );
    await expect(page.getByTestId("session-diagnostics")).toContainText("ho2m 8 · ho1m 8 · governance 5");
    const rows = page.getByTestId("timeline-row");
    await expect(rows).toHaveCount(21);
    await expect(rows.first()).toContainText("SESSION_START");
    await expect(page.getByRole("table", { name: "Session timeline" })).not.toContainText("PROMPT: what frameworks");
    await page.screenshot({ path: path.join(TMP, "session.png"), fullPage: true });
    await page.getByRole("link", { name: "Show full payloads" }).click();
    await expect(page.getByRole("table", { name: "Session timeline" })).toContainText("PROMPT: what frameworks");
    await page.screenshot({ path: path.join(TMP, "session-full.png"), fullPage: true });

    await rows.filter({ hasText: "TURN_RECORDED" }).first().getByRole("link", { name: "TURN_RECORDED" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "ho2m" })).toBeVisible();
    await expect(page.getByTestId("ledger-verdict")).toHaveText("verified");
    await expect(page.locator("li.bg-highlight")).toContainText('"event_type": "TURN_RECORDED"');
  });

  test("the session's Timeline route and an unknown session", async ({ page }) => {
    await page.goto(`/projects/${encodeURIComponent(healthyKey)}/sessions/${SESSION}/timeline`);
    await expect(page.getByTestId("session-about")).toContainText('User started with "what frameworks are installed?"');
    await expect(page.getByTestId("timeline-row")).toHaveCount(21);
    await expect(page.getByTestId("timeline-row").last()).toContainText("SESSION_END");
    await page.screenshot({ path: path.join(TMP, "timeline.png"), fullPage: true });
    const missing = await page.goto(`/projects/${encodeURIComponent(healthyKey)}/sessions/not-a-session`);
    expect(missing?.status()).toBe(404);
  });
});
