// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import { createCoreContext } from "@/lib/context";
import type { ViewerCompactRecord, ViewerFullRecord } from "@/lib/session-reader/schema";
import { readViewerLines } from "@/lib/session-reader/viewer-lines";
import { buildTestWorkspace, TEST_PROJECT_KEY, userLines } from "@/lib/testing/workspace-builder";

import { LineRow, type LineRowProps } from "./line-row";

// Records as the viewer receives them: read through the same core call as the dashboard's.
let compact: ViewerCompactRecord[];
let full: ViewerFullRecord[];
beforeAll(async () => {
  const ctx = createCoreContext(await buildTestWorkspace([{ ref: "S0001", content: userLines(3) }]));
  const query = { projectKey: TEST_PROJECT_KEY, sessionRef: "S0001", start: 1, end: 3 };
  compact = (await readViewerLines(ctx, { ...query, mode: "compact" })).records as ViewerCompactRecord[];
  full = (await readViewerLines(ctx, { ...query, mode: "full" })).records as ViewerFullRecord[];
});
afterEach(cleanup);

function row(props: Partial<LineRowProps>) {
  const onLineClick = vi.fn((_line: number, event: { preventDefault: () => void }) => event.preventDefault());
  const base: LineRowProps = {
    index: 1,
    line: 2,
    lineCount: 3,
    mode: "compact",
    status: "ready",
    record: compact[1],
    turnStart: null,
    band: 0,
    highlighted: false,
    marked: false,
    current: false,
    measureElement: () => undefined,
    onLineClick,
  };
  render(<LineRow {...base} {...props} />);
  return { onLineClick, item: screen.getByRole("listitem", { hidden: props.hidden === true }) };
}

describe("the viewer's line row", () => {
  it("shows the line number as a link to its anchor, and the compact record a reader sees", () => {
    const { item } = row({});
    const link = within(item).getByRole("link", { name: "2" });
    expect(link.getAttribute("href")).toBe("#L2");
    expect(item.textContent).toContain("user");
    expect(item.textContent).toContain("message 2");
    expect(item.getAttribute("aria-posinset")).toBe("2");
    expect(item.getAttribute("aria-setsize")).toBe("3");
  });

  it("labels the first line of a turn with its ref and line span", () => {
    const { item } = row({ turnStart: { turn_ref: "T0002", turn_start_line: 2, turn_end_line: 3 } as LineRowProps["turnStart"] });
    expect(within(item).getByText("T0002")).toBeTruthy();
    expect(item.textContent).toContain("lines 2–3");
  });

  it("shows the raw line in full mode", () => {
    const { item } = row({ mode: "full", record: full[1] });
    expect(item.textContent).toContain('"content":"message 2"');
  });

  it("says when a line is still loading or could not be loaded", () => {
    row({ status: "loading", record: undefined });
    expect(screen.getByLabelText("Loading line")).toBeTruthy();
    cleanup();
    const { item } = row({ status: "error", record: undefined });
    expect(item.textContent).toContain("not loaded");
  });

  it("marks the current line for assistive technology and hands clicks on the number to the viewer", () => {
    const { item, onLineClick } = row({ current: true });
    expect(item.getAttribute("aria-current")).toBe("true");
    fireEvent.click(within(item).getByRole("link", { name: "2" }));
    expect(onLineClick).toHaveBeenCalledWith(2, expect.anything());
  });

  it("renders a line hidden by a filter as an empty row, out of the accessibility tree", () => {
    const { item } = row({ hidden: true });
    expect(item.textContent).toBe("");
    expect(screen.queryByRole("listitem")).toBeNull();
    expect(item.getAttribute("data-hidden")).toBe("true");
  });
});
