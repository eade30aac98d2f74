import { expect, test } from "./fixtures";
import { SYNTHESIS_PROJECT_LABEL } from "./paths";
import { findProjectByLabel, gapItem, materialItem, readEnvelope, resetSynthesis, writeEvidenceWithCli, writeWorkItemWithCli } from "./synthesis-workspace";

/*
 * Issue 4, "Done when" (Playwright): open the synthesis page of a prepared project; agents
 * append evidence chains and work items with the CLI from another process, and the bar and the
 * strip follow without a reload; record an exclusion for an uncovered turn from the page, first
 * with an empty reason (the server's error and hint at Reason, the form kept), then with a turn
 * the kind cannot cover (the error at that turn), then valid; then an evidence gap.
 * The demo project acme-api: S0001 T0001–T0003, S0002 T0001–T0002; no chains at first.
 */
type Marked = Window & { __synthesisMarker?: string };

test.describe("synthesis page", () => {
  test("follows agents' writes live and records an exclusion", async ({ page, synthesisPage: sp }) => {
    test.setTimeout(180_000);
    const project = findProjectByLabel(SYNTHESIS_PROJECT_LABEL);
    resetSynthesis(project);

    await sp.goto(project.projectKey);
    await expect(sp.coveredMeter()).toHaveAttribute("aria-valuetext", "0/5");
    await expect(sp.completeness()).toHaveText(/No envelope yet · 5 uncovered/);
    await expect(sp.cell("S0001/T0001")).toHaveAttribute("aria-label", "S0001/T0001: no chain yet");
    await expect(sp.legendEntry("no chain yet", 5)).toBeVisible();
    // Set once; a reload or a navigation would drop it.
    await page.evaluate(() => ((window as Marked).__synthesisMarker = "no reload"));
    const stillSamePage = async () => expect(await page.evaluate(() => (window as Marked).__synthesisMarker)).toBe("no reload");

    await test.step("an agent commits a chain: the turn turns from no-chain to uncovered", async () => {
      expect(writeEvidenceWithCli(project, "S0001/T0001").status).toBe("appended");
      await expect(sp.cell("S0001/T0001")).toHaveAttribute("aria-label", "S0001/T0001: uncovered");
      await expect(sp.legendEntry("uncovered", 1)).toBeVisible();
      await expect(sp.legendEntry("no chain yet", 4)).toBeVisible();
      await expect(sp.coveredMeter()).toHaveAttribute("aria-valuetext", "0/5");
    });

    await test.step("an agent writes work items: the bar and the strip fill turn by turn", async () => {
      expect(writeWorkItemWithCli(project, materialItem("W0001", "S0001/T0001")).status).toBe("appended");
      await expect(sp.cell("S0001/T0001")).toHaveAttribute("aria-label", "S0001/T0001: material work (W0001)");
      await expect(sp.coveredMeter()).toHaveAttribute("aria-valuetext", "1/5");
      await expect(sp.legendEntry("material work", 1)).toBeVisible();
      await expect(sp.completeness()).toHaveText("4 uncovered");
      const span = project.spans.get("S0001/T0001")!;
      await expect(sp.workItem("W0001").getByRole("link", { name: "S0001/T0001" })).toHaveAttribute(
        "href",
        `/projects/${project.projectKey}/sessions/S0001#L${span.start}-L${span.end}`,
      );

      expect(writeWorkItemWithCli(project, gapItem("W0002", "S0002/T0002")).status).toBe("appended");
      await expect(sp.cell("S0002/T0002")).toHaveAttribute("aria-label", "S0002/T0002: evidence gap (W0002)");
      await expect(sp.coveredMeter()).toHaveAttribute("aria-valuetext", "2/5");
      await expect(sp.legendEntry("evidence gap", 1)).toBeVisible();
      await expect(sp.completeness()).toHaveText("3 uncovered");
      await stillSamePage();
    });

    await test.step("an exclusion with an empty reason: the server's error and hint at Reason, the form kept", async () => {
      expect(writeEvidenceWithCli(project, "S0001/T0002").status).toBe("appended");
      const cell = sp.cell("S0001/T0002");
      await expect(cell).toHaveAttribute("aria-label", "S0001/T0002: uncovered");
      await cell.click();
      await expect(cell).toHaveAttribute("aria-pressed", "true");
      await expect(sp.field("Kind")).toHaveValue("excluded_with_reason");

      // The shape check runs as you type: a blank title is flagged before any save.
      await sp.field("Title").fill(" ");
      // Plain words, said once (issues 12 and 29); the contract's exact message is the error's tooltip.
      await expect(sp.field("Title")).toHaveAccessibleDescription(/^Write something here: it cannot be empty\.$/);
      await expect(page.locator("#op-title-error li")).toHaveAttribute("title", "work_item.title must be a non-empty string");
      await sp.field("Title").fill("Side question about the CI cache");
      await expect(sp.field("Title")).toHaveAccessibleDescription("");
      await sp.field("Confidence").selectOption("medium");
      await sp.create();

      const reason = sp.field("Reason");
      await expect(reason).toHaveAccessibleDescription(/Write something here: it cannot be empty\./);
      await expect(page.locator("#op-reason-error li")).toHaveAttribute("title", "work_item.reason must be a non-empty string");
      await expect(reason).toHaveAttribute("aria-invalid", "true");
      await expect(reason).toBeFocused();
      await expect(sp.field("Title")).toHaveValue("Side question about the CI cache");
      await expect(cell).toHaveAttribute("aria-pressed", "true");
      expect(readEnvelope(project)?.work_items.map((i) => i.work_item_ref)).toEqual(["W0001", "W0002"]);
    });

    await test.step("a turn without a chain in the selection: the server's error at that turn", async () => {
      await sp.field("Reason").fill("A side question, not part of the reported work.");
      await expect(sp.field("Reason")).not.toHaveAttribute("aria-invalid", "true");
      await sp.cell("S0001/T0003").click();
      await expect(sp.form().getByRole("note")).toContainText("Mixed selection");
      await sp.create();
      await expect(sp.selectedTurn("S0001/T0003")).toHaveAccessibleDescription(
        /S0001\/T0003 has no committed evidence chain; only an evidence_gap_item may cover it.*cover turns without a chain using an evidence_gap_item/,
      );
      await expect(sp.selectedTurn("S0001/T0002")).toHaveAccessibleDescription("Open the turn in the viewer (new tab)");
      expect(readEnvelope(project)?.work_items).toHaveLength(2);
      await sp.form().getByRole("button", { name: "Keep the exclusion turns" }).click();
      await expect(sp.selectedTurn("S0001/T0003")).toHaveCount(0);
    });

    await test.step("then valid: the cell turns excluded, the item is listed and on disk", async () => {
      await sp.create();
      await expect(sp.cell("S0001/T0002")).toHaveAttribute("aria-label", "S0001/T0002: excluded (W0003)");
      await expect(sp.coveredMeter()).toHaveAttribute("aria-valuetext", "3/5");
      await expect(sp.legendEntry("excluded", 1)).toBeVisible();
      await expect(sp.workItem("W0003")).toContainText("Side question about the CI cache");
      await expect(sp.workItem("W0003")).toContainText("Reason: A side question, not part of the reported work.");
      await expect(sp.field("Title")).toHaveValue("");
      expect(readEnvelope(project)?.work_items.at(-1)).toMatchObject({
        work_item_ref: "W0003",
        kind: "excluded_with_reason",
        covered_turns: [{ session_ref: "S0001", turn_ref: "T0002" }],
        reason: "A side question, not part of the reported work.",
        confidence: "medium",
      });
    });

    await test.step("a turn without a chain can only be an evidence gap", async () => {
      await sp.cell("S0001/T0003").click();
      await expect(sp.field("Kind")).toHaveValue("evidence_gap_item");
      await expect(sp.field("Kind").locator("option[value=excluded_with_reason]")).toBeDisabled();
      await sp.field("Title").fill("Docs follow-up left no evidence");
      await sp.create();
      await expect(sp.cell("S0001/T0003")).toHaveAttribute("aria-label", "S0001/T0003: evidence gap (W0004)");
      await expect(sp.coveredMeter()).toHaveAttribute("aria-valuetext", "4/5");
      await stillSamePage();
    });
  });
});
