// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { DeleteChainButton } from "@/components/evidence/delete-chain-button";
import { TurnEvidenceItem } from "@/components/evidence/turn-evidence-item";
import { OperatorItemForm } from "@/components/synthesis/operator-item-form";
import type { EvidenceTurnState } from "@/lib/evidence/schema";
import type { SynthesisTurnState } from "@/lib/synthesis/schema";

import { WriteAccessProvider } from "./write-access";
import { writeRefusal } from "./write-refusal";

// The writing controls' server actions are never called here: a disabled control cannot call them.
vi.mock("@/server/actions/evidence", () => ({ createEvidenceChainAction: vi.fn(), replaceEvidenceChainAction: vi.fn(), deleteEvidenceChainAction: vi.fn() }));
vi.mock("@/server/actions/synthesis", () => ({ createOperatorItemAction: vi.fn() }));

afterEach(cleanup);

const READ_REFUSAL = writeRefusal({ machine: "reviewer", role: "read" });

/** `ui` as a page of a browser whose refusal is `refusal` (null: it may write), or with no provider at all (a local dashboard). */
function renderAs(refusal: string | null | "no provider", ui: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={client}>{refusal === "no provider" ? ui : <WriteAccessProvider refusal={refusal}>{ui}</WriteAccessProvider>}</QueryClientProvider>);
}

const TURN: EvidenceTurnState = { turn_ref: "T0001", turn_start_line: 1, turn_end_line: 4, state: "none", chain_index: null, chain_version: "absent" };
const cardRef = { projectKey: "p", sessionRef: "S0001" };
const turnItem = <TurnEvidenceItem cardRef={cardRef} turn={TURN} entry={undefined} base={{ version: "v1", chainVersion: "absent" }} expanded current={false} readOnly={false} onToggle={() => {}} onEdit={() => {}} />;

describe("writeRefusal (issue 39)", () => {
  it("names the read token's machine; push, admin and a local dashboard may write", () => {
    expect(READ_REFUSAL).toBe("Your token is read-only (machine reviewer): it may read, not write. Ask for a push or admin token to write.");
    expect([writeRefusal({ machine: "laptop", role: "push" }), writeRefusal({ machine: "ops", role: "admin" }), writeRefusal(null)]).toEqual([null, null, null]);
  });
});

describe("writing controls for a browser that may not write (issue 39)", () => {
  it("Create chain is disabled, the reason beside it", () => {
    renderAs(READ_REFUSAL, turnItem);
    const create = screen.getByRole("button", { name: "Create chain" }) as HTMLButtonElement;
    expect(create.disabled).toBe(true);
    expect(document.getElementById(create.getAttribute("aria-describedby")!)?.textContent).toBe(READ_REFUSAL);
  });

  it("Delete chain is disabled, the reason as its title", () => {
    renderAs(READ_REFUSAL, <DeleteChainButton cardRef={cardRef} turnRef="T0001" base={{ version: "v1", chainVersion: "c1" }} />);
    const del = screen.getByRole("button", { name: "Delete chain…" }) as HTMLButtonElement;
    expect([del.disabled, del.title]).toEqual([true, READ_REFUSAL]);
  });

  it("the work item form's Create is disabled, the reason beside it", () => {
    const selection: SynthesisTurnState[] = [{ session_ref: "S0001", turn_ref: "T0001", turn_start_line: 1, turn_end_line: 4, has_chain: false, state: "no_chain", work_item_ref: null }];
    renderAs(READ_REFUSAL, <OperatorItemForm projectKey="p" selection={selection} onRemove={() => {}} onKeepOnly={() => {}} onClear={() => {}} />);
    const create = screen.getByRole("button", { name: /^Create / }) as HTMLButtonElement;
    expect(create.disabled).toBe(true);
    expect(document.getElementById(create.getAttribute("aria-describedby")!)?.textContent).toBe(READ_REFUSAL);
  });

  it("a browser that may write, and a local dashboard (no provider), see them enabled with no reason", () => {
    for (const refusal of [null, "no provider"] as const) {
      renderAs(refusal, turnItem);
      const create = screen.getByRole("button", { name: "Create chain" }) as HTMLButtonElement;
      expect([create.disabled, create.getAttribute("aria-describedby")]).toEqual([false, null]);
      expect(screen.queryByText(/read-only/)).toBeNull();
      cleanup();
    }
  });
});
