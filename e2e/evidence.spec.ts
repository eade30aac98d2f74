import { chainOf, dropChains, findWorkspaceSession, readCard, rewriteChain, writeEvidenceWithCli } from "./evidence-workspace";
import { expect, test } from "./fixtures";
import { EVIDENCE_TURNS, HAS_CORPUS, LONG_SESSION, NO_CORPUS_REASON } from "./paths";

/*
 * Issue 3, "Done when" (Playwright): on a real corpus session, select lines, create a chain
 * with a citation outside the turn, see the error at that citation with its hint, fix it, save,
 * see the chain listed and the card on disk; edit it. Issue 12 item 10: an agent's append of
 * another turn meanwhile does not stop the edit; a rewrite of the same chain makes the next
 * save show the conflict and keep the draft; reload the card and save.
 */
test.describe("evidence editor on a corpus session", () => {
  test.skip(!HAS_CORPUS, NO_CORPUS_REASON);

  test("create, fix, edit, survive an agent appending another turn, conflict on the same chain", async ({ page, viewerPage, evidencePanel: ev }) => {
    test.setTimeout(180_000);
    const session = findWorkspaceSession(LONG_SESSION.sourceSessionId);
    const turn = session.turns.find((t) => t.turn_ref === EVIDENCE_TURNS.reviewed)!;
    const other = session.turns.find((t) => t.turn_ref === EVIDENCE_TURNS.appended)!;
    expect(turn.turn_end_line - turn.turn_start_line, "the reviewed turn needs 6+ lines").toBeGreaterThanOrEqual(5);
    dropChains(session, Object.values(EVIDENCE_TURNS));

    const s = turn.turn_start_line;
    const outside = { start: s - 7, end: s - 2 }; // in the previous turn
    const inside = `${s}-${s + 1}`;
    const reaction = `${s + 2}-${s + 4}`;

    await page.goto(session.url);
    await viewerPage.waitForLoaded();
    await expect(ev.turn(turn.turn_ref)).toHaveAttribute("data-state", "none");

    await test.step("select lines in the viewer and cite them", async () => {
      await viewerPage.jumpInput().fill(String(outside.start));
      await viewerPage.jumpInput().press("Enter");
      await viewerPage.row(outside.start).getByRole("link", { name: String(outside.start), exact: true }).click();
      await viewerPage.row(outside.end).getByRole("link", { name: String(outside.end), exact: true }).click({ modifiers: ["Shift"] });
      await expect(page).toHaveURL(new RegExp(`#L${outside.start}-L${outside.end}$`));
      await viewerPage.expectRowBudget();

      await ev.openEditor(turn.turn_ref, "Create chain");
      await ev.citeButton().click();
      await expect(ev.field("Trigger citation 1")).toHaveValue(`${outside.start}-${outside.end}`);
    });

    await test.step("fill every part; shape errors show as you type", async () => {
      await ev.field("Trigger type").selectOption("explicit_user_message");
      await ev.field("Trigger summary").fill("The user asks to wrap up the work.");
      await ev.button("+ Add quoted message").click();
      await ev.field("Quoted message 1 text").fill("please finish");
      await ev.addCitation("Quoted message 1", String(s)); // a single line: normalised to s-s
      await ev.button("+ Add reaction").click();
      await ev.field("Reaction 1 summary").fill("The agent reports what it changed.");
      await ev.addCitation("Reaction 1", reaction);
      await ev.button("+ Add outcome").click();
      await ev.field("Outcome 1 category").selectOption("code_outcome");
      await ev.field("Outcome 1 summary").fill("Changes summarised.");
      await ev.addCitation("Outcome 1", "abc");
      await expect(ev.field("Outcome 1 citation 1")).toHaveAccessibleDescription(/^Write a line span such as 12-20/);
      await ev.field("Outcome 1 citation 1").fill(reaction);
      await expect(ev.field("Outcome 1 citation 1")).toHaveAccessibleDescription("");
      await ev.button("+ Add check").click();
      await ev.field("Check 1 type").selectOption("command_output");
      await ev.field("Check 1 summary").fill("Command output is visible.");
      await ev.addCitation("Check 1", reaction);
      await ev.field("Terminal state type").selectOption("material_result");
      await ev.field("Terminal state summary").fill("Work wrapped up.");
      await ev.addCitation("Terminal state", String(turn.turn_end_line));
      await ev.field("Materiality").selectOption("material");
      await ev.field("Trigger summary").click(); // blur: the single line is normalised
      await expect(ev.field("Terminal state citation 1")).toHaveValue(`${turn.turn_end_line}-${turn.turn_end_line}`);
    });

    await test.step("a citation outside the turn: the error and hint at that citation, draft kept", async () => {
      await ev.save();
      const citation = ev.field("Trigger citation 1");
      await expect(citation).toHaveAccessibleDescription(
        new RegExp(`^Lines ${outside.start}–${outside.end} are not in turn ${turn.turn_ref} \\(lines ${turn.turn_start_line}–${turn.turn_end_line}\\)`),
      );
      // Said once (issue 29); the contract's exact message is the error's tooltip.
      await expect(ev.editor().getByTestId("field-error").locator("li").first()).toHaveAttribute("title", `line span ${outside.start}-${outside.end} is outside turn ${turn.turn_ref} span ${turn.turn_start_line}-${turn.turn_end_line}`);
      await expect(ev.editor().getByText("exact message")).toHaveCount(0);
      await expect(citation).toHaveAttribute("aria-invalid", "true");
      await expect(ev.field("Trigger summary")).toHaveValue("The user asks to wrap up the work.");
      expect(chainOf(readCard(session), turn.turn_ref)).toBeUndefined();

      await citation.fill(inside);
      await expect(citation).toHaveAccessibleDescription("");
      await ev.save();
      await expect(ev.editor()).toBeHidden();
    });

    await test.step("the chain is listed, its chips scroll the viewer, the card is on disk", async () => {
      await expect(ev.turn(turn.turn_ref)).toHaveAttribute("data-state", "chain");
      const view = ev.chainView(turn.turn_ref);
      await expect(view).toContainText("The user asks to wrap up the work.");
      await expect(view).toContainText("code_outcome");
      await view.getByRole("button", { name: `L${s}–${s + 1}`, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`#L${s}-L${s + 1}$`));
      await expect(viewerPage.row(s)).toBeInViewport();
      await expect(viewerPage.row(s)).toHaveAttribute("data-highlighted", "true");
      await expect(viewerPage.row(s + 3)).toHaveAttribute("data-cited", "true");
      await viewerPage.expectRowBudget();

      const stored = chainOf(readCard(session), turn.turn_ref);
      expect(stored).toMatchObject({
        turn_ref: turn.turn_ref,
        trigger: { type: "explicit_user_message", citations: [{ lines: inside }], quoted_messages: [{ text: "please finish", citations: [{ lines: `${s}-${s}` }] }] },
        outcomes: [{ category: "code_outcome", citations: [{ lines: reaction }] }],
        terminal_state: { type: "material_result", citations: [{ lines: `${turn.turn_end_line}-${turn.turn_end_line}` }] },
        materiality: "material",
      });
    });

    await test.step("edit (replace) the chain", async () => {
      await ev.openEditor(turn.turn_ref, "Edit chain");
      await expect(ev.field("Outcome 1 summary")).toHaveValue("Changes summarised.");
      await ev.field("Outcome 1 summary").fill("Changes summarised and reviewed.");
      await ev.save();
      await expect(ev.editor()).toBeHidden();
      await expect(ev.chainView(turn.turn_ref)).toContainText("Changes summarised and reviewed.");
      expect(chainOf(readCard(session), turn.turn_ref)).toMatchObject({ outcomes: [{ summary: "Changes summarised and reviewed." }] });
    });

    await test.step("an agent appends another turn meanwhile: the edit of this turn still saves (per-turn conflicts)", async () => {
      await ev.openEditor(turn.turn_ref, "Edit chain");
      const result = writeEvidenceWithCli(session, agentChain(other));
      expect(result.status).toBe("appended");
      await ev.field("Trigger summary").fill("The user asks to wrap up, after the agent's append.");
      await ev.save();
      await expect(ev.editor()).toBeHidden();
      await expect(ev.chainView(turn.turn_ref)).toContainText("after the agent's append");
      await expect(ev.turn(other.turn_ref)).toHaveAttribute("data-state", "chain");
      const card = readCard(session);
      expect(chainOf(card, turn.turn_ref)).toMatchObject({ trigger: { summary: "The user asks to wrap up, after the agent's append." } });
      expect(chainOf(card, other.turn_ref)).toMatchObject({ materiality: "minor" });
    });

    await test.step("someone rewrites this turn's chain meanwhile: the stale save shows the conflict and keeps the draft", async () => {
      await ev.openEditor(turn.turn_ref, "Edit chain");
      rewriteChain(session, turn.turn_ref, (c) => ({ ...c, materiality: "minor" }));
      await ev.field("Trigger summary").fill("The user asks to wrap up, reviewed twice.");
      await ev.save();
      const conflict = ev.editor().getByRole("alert").filter({ hasText: "this turn's chain changed on disk" });
      await expect(conflict).toContainText(`the evidence chain of turn '${turn.turn_ref}' changed since you loaded it`);
      await expect(conflict).toContainText("Your draft is kept.");
      await expect(ev.field("Trigger summary")).toHaveValue("The user asks to wrap up, reviewed twice.");
      expect(chainOf(readCard(session), turn.turn_ref)).toMatchObject({ trigger: { summary: "The user asks to wrap up, after the agent's append." } });

      await ev.button("Reload card").click();
      await expect(ev.editor().getByRole("status").filter({ hasText: "Card reloaded" })).toBeVisible();
      await expect(ev.field("Trigger summary")).toHaveValue("The user asks to wrap up, reviewed twice.");
      await ev.save();
      await expect(ev.editor()).toBeHidden();
      await expect(ev.chainView(turn.turn_ref)).toContainText("reviewed twice");
      expect(chainOf(readCard(session), turn.turn_ref)).toMatchObject({ trigger: { summary: "The user asks to wrap up, reviewed twice." } });
      await viewerPage.expectRowBudget();
    });

    await test.step("delete the agent's chain, with a confirmation", async () => {
      await ev.expandTurn(other.turn_ref);
      await ev.turn(other.turn_ref).getByRole("button", { name: "Delete chain…" }).click();
      await ev.turn(other.turn_ref).getByRole("group", { name: /Confirm deleting/ }).getByRole("button", { name: "Delete", exact: true }).click();
      await expect(ev.turn(other.turn_ref)).toHaveAttribute("data-state", "none");
      expect(chainOf(readCard(session), other.turn_ref)).toBeUndefined();
      expect(chainOf(readCard(session), turn.turn_ref)).toBeDefined();
    });

    await test.step("the project page shows the session's coverage", async () => {
      const indexed = new Set(session.turns.map((t) => t.turn_ref));
      const withChain = new Set(readCard(session)!.evidence_chains.map((c) => String(c.turn_ref)).filter((ref) => indexed.has(ref)));
      await page.goto(session.url.replace(/\/sessions\/.*$/, ""));
      const meter = page.getByRole("meter", { name: `Evidence coverage of ${session.sessionRef}` });
      await expect(meter).toHaveAttribute("aria-valuetext", `${withChain.size}/${session.turns.length}`);
      await expect(page.getByRole("region", { name: "Evidence coverage" })).toBeVisible();
    });
  });
});

/** A valid chain for the "agent" to append: every citation inside its turn. */
function agentChain(turn: { turn_ref: string; turn_start_line: number; turn_end_line: number }) {
  const all = { lines: `${turn.turn_start_line}-${turn.turn_end_line}` };
  return {
    turn_ref: turn.turn_ref,
    trigger: { type: "resume_or_continue", summary: "The user asks to continue.", quoted_messages: [], citations: [{ lines: `${turn.turn_start_line}-${turn.turn_start_line}` }] },
    agent_reactions: [{ summary: "The agent continues.", citations: [all] }],
    outcomes: [],
    observed_checks: [],
    terminal_state: { type: "clarification_only", summary: "Only scope was clarified.", citations: [all] },
    materiality: "minor",
  };
}
