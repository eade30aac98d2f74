// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { type CoreContext, createCoreContext } from "@/lib/context";
import { basicT1Chain, buildTwoTurnWorkspace, cardBytes, PROJECT } from "@/lib/evidence/__fixtures__/chains";
import type { EvidenceCardView } from "@/lib/evidence/schema";
import { createEvidenceChainTool, getEvidenceCardTool, replaceEvidenceChainTool } from "@/lib/evidence/tools";
import { invokeToolForUi } from "@/lib/tools/registry";

import { ChainEditor } from "./chain-editor";

/** Saves run real tool calls: on a loaded machine they take longer than Testing Library's default second. */
const SLOW = { timeout: 10_000 };

// The editor's server actions, run against a real workspace through the same tools (door `ui`).
let ctx: CoreContext;
vi.mock("@/server/actions/evidence", () => ({
  createEvidenceChainAction: async (input: unknown) => ({ ok: true, data: await invokeToolForUi(ctx, createEvidenceChainTool, input) }),
  replaceEvidenceChainAction: async (input: unknown) => ({ ok: true, data: await invokeToolForUi(ctx, replaceEvidenceChainTool, input) }),
  deleteEvidenceChainAction: async () => ({ ok: false, error: { code: "internal", message: "not used here" } }),
}));

beforeEach(async () => {
  ctx = createCoreContext(await buildTwoTurnWorkspace());
});
afterEach(cleanup);

const card = async (): Promise<EvidenceCardView> => (await invokeToolForUi(ctx, getEvidenceCardTool, { project_key: PROJECT, session_ref: "S0001" })) as EvidenceCardView;

async function openEditor(mode: "create" | "replace") {
  const view = await card();
  const turn = view.turns.find((t) => t.turn_ref === "T0001")!;
  const onSaved = vi.fn();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ChainEditor
        cardRef={{ projectKey: PROJECT, sessionRef: "S0001" }}
        turn={turn}
        mode={mode}
        chain={mode === "replace" ? basicT1Chain() : null}
        opened={{ version: view.version, chainVersion: turn.chain_version }}
        lineCount={10}
        onClose={() => undefined}
        onSaved={onSaved}
      />
    </QueryClientProvider>,
  );
  return { onSaved };
}

const summary = () => screen.getByLabelText("Trigger summary") as HTMLTextAreaElement;

describe("the evidence chain editor", () => {
  it("names the turn and its lines, and refuses an empty chain at the marked fields without writing", async () => {
    await openEditor("create");
    expect(screen.getByRole("form", { name: "Evidence chain editor for T0001" })).toBeTruthy();
    expect(screen.getByText("New chain", { exact: false })).toBeTruthy();
    expect(screen.getByText("lines 2–8")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Save chain" }));
    expect((await screen.findByText(/problems? — see the marked fields\./, undefined, SLOW)).textContent).toMatch(/^\d+ problems? /);
    expect(await cardBytes(ctx.workspaceRoot)).toBeNull();
  });

  it("saves a corrected chain: the card on disk holds the reviewer's words", async () => {
    await invokeToolForUi(ctx, createEvidenceChainTool, { project_key: PROJECT, session_ref: "S0001", evidence_chain: basicT1Chain() });
    const { onSaved } = await openEditor("replace");
    expect(summary().value).toBe(basicT1Chain().trigger && (basicT1Chain().trigger as { summary: string }).summary);
    fireEvent.change(summary(), { target: { value: "User asked for the MCP write docs to be rewritten." } });
    fireEvent.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith("T0001"), SLOW);
    expect(String(await cardBytes(ctx.workspaceRoot))).toContain("User asked for the MCP write docs to be rewritten.");
  });

  it("refuses a save whose turn changed on disk meanwhile, says so, and keeps the draft", async () => {
    await invokeToolForUi(ctx, createEvidenceChainTool, { project_key: PROJECT, session_ref: "S0001", evidence_chain: basicT1Chain() });
    const { onSaved } = await openEditor("replace");
    // Another writer (an agent) replaces the chain after the editor opened.
    const view = await card();
    const theirs = { ...basicT1Chain(), trigger: { ...(basicT1Chain().trigger as object), summary: "An agent's version." } };
    const turn = view.turns.find((t) => t.turn_ref === "T0001")!;
    await invokeToolForUi(ctx, replaceEvidenceChainTool, { project_key: PROJECT, session_ref: "S0001", evidence_chain: theirs, base_version: view.version, base_chain_version: turn.chain_version });

    fireEvent.change(summary(), { target: { value: "The reviewer's version." } });
    fireEvent.click(screen.getByRole("button", { name: "Save changes" }));
    const alert = await screen.findByText("Not saved: this turn's chain changed on disk", undefined, SLOW);
    expect(alert).toBeTruthy();
    expect(screen.getByText(/Your draft is kept\./)).toBeTruthy();
    expect(summary().value).toBe("The reviewer's version.");
    expect(onSaved).not.toHaveBeenCalled();
    expect(String(await cardBytes(ctx.workspaceRoot))).toContain("An agent's version.");
  });

  it("flags a citation outside the turn as it is typed, in the server's words, before any save (issue 36)", async () => {
    await openEditor("create");
    fireEvent.click(screen.getByRole("button", { name: "+ Add citation to Trigger" }));
    const citation = screen.getByLabelText("Trigger citation 1") as HTMLInputElement;
    fireEvent.change(citation, { target: { value: "5" } });
    expect(screen.queryByText(/are not in turn T0001/)).toBeNull();
    fireEvent.change(citation, { target: { value: "9-12" } });
    const plain = screen.getByText(/Lines 9–12 are not in turn T0001 \(lines 2–8\)\./);
    // The same message stage C gives on the server (lib/evidence/check-turn), as its tooltip.
    expect(plain.closest("[title]")?.getAttribute("title")).toBe("line span 9-12 is outside turn T0001 span 2-8");
    expect(citation.getAttribute("aria-invalid")).toBe("true");
    fireEvent.change(citation, { target: { value: "3-8" } });
    expect(screen.queryByText(/are not in turn T0001/)).toBeNull();
  });

  it("flags a transcript selection outside the turn before it is cited, and the citation once it is (issue 36)", async () => {
    window.history.replaceState(null, "", "/#L9-L10");
    try {
      await openEditor("create");
      expect(screen.getByTestId("selection-outside-turn").textContent).toMatch(/Lines 9–10 are not in turn T0001 \(lines 2–8\)\./);
      fireEvent.click(screen.getByRole("button", { name: "Cite L9–L10" }));
      const citation = screen.getByLabelText("Trigger citation 1") as HTMLInputElement;
      expect(citation.value).toBe("9-10");
      expect(citation.getAttribute("aria-invalid")).toBe("true");
      expect(document.getElementById(citation.getAttribute("aria-describedby")!)?.textContent).toMatch(/Lines 9–10 are not in turn T0001/);
    } finally {
      window.history.replaceState(null, "", "/");
    }
  });

  it("shows the server's structural error at the field it concerns, keeping the draft", async () => {
    await invokeToolForUi(ctx, createEvidenceChainTool, { project_key: PROJECT, session_ref: "S0001", evidence_chain: basicT1Chain() });
    const before = String(await cardBytes(ctx.workspaceRoot));
    const { onSaved } = await openEditor("replace");
    // A citation outside the turn (T0001 is lines 2–8): the shape is fine, the server refuses it.
    const citation = screen.getAllByLabelText(/Trigger citation 1/)[0] as HTMLInputElement;
    fireEvent.change(citation, { target: { value: "9-9" } });
    fireEvent.click(screen.getByRole("button", { name: "Save changes" }));
    await screen.findByText(/problems? — see the marked fields\./, undefined, SLOW);
    // In plain words at the citation, once; the server's exact message is its tooltip (issue 29).
    const plain = screen.getByText(/Lines 9–9 are not in turn T0001 \(lines 2–8\)\./);
    expect(plain.closest("[title]")?.getAttribute("title")).toContain("line span 9-9 is outside turn T0001 span 2-8");
    expect(document.body.textContent).not.toContain("line span 9-9 is outside turn T0001 span 2-8");
    expect(citation.value).toBe("9-9");
    expect(onSaved).not.toHaveBeenCalled();
    expect(String(await cardBytes(ctx.workspaceRoot))).toBe(before);
  });
});
