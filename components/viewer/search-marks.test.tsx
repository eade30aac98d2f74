// @vitest-environment happy-dom
// A search hit opened in the viewer shows its match (issue 37): a clamped text holding it opens with
// the match marked; a match in a part compact mode trims shows as the hit's snippet on its row.
import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import type { ViewerCompactRecord } from "@/lib/session-reader/schema";
import { readViewerLines } from "@/lib/session-reader/viewer-lines";
import { buildTestWorkspace, TEST_PROJECT_KEY } from "@/lib/testing/workspace-builder";

import { LineRow, type LineRowProps } from "./line-row";
import { setSearchHighlight } from "./search-highlight";

const FILLER = Array.from({ length: 40 }, (_, i) => `filler line ${i + 1} of a long text`).join("\n");
const LINES = [
  JSON.stringify({ type: "user", timestamp: "2026-05-12T01:00:00Z", message: { role: "user", content: `${FILLER}\nthe needle-in-text at the end` } }),
  JSON.stringify({ type: "assistant", timestamp: "2026-05-12T01:00:01Z", message: { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Read", input: { file_path: "src/a.ts" } }] } }),
  JSON.stringify({ type: "user", timestamp: "2026-05-12T01:00:02Z", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: `${"head ".repeat(400)}needle-in-middle ${"tail ".repeat(400)}` }] } }),
];

let compact: ViewerCompactRecord[];
beforeAll(async () => {
  const ctx = createCoreContext(await buildTestWorkspace([{ ref: "S0001", content: `${LINES.join("\n")}\n` }]));
  compact = (await readViewerLines(ctx, { projectKey: TEST_PROJECT_KEY, sessionRef: "S0001", start: 1, end: LINES.length, mode: "compact" })).records as ViewerCompactRecord[];
});
afterEach(() => {
  act(() => setSearchHighlight(null));
  cleanup();
});

function row(line: number) {
  const props: LineRowProps = { index: line - 1, line, lineCount: LINES.length, mode: "compact", status: "ready", record: compact[line - 1], turnStart: null, band: 0, highlighted: true, marked: false, current: false, measureElement: () => undefined, onLineClick: () => undefined };
  render(<LineRow {...props} />);
  return screen.getByRole("listitem");
}

describe("the viewer's rows under a search", () => {
  it("open a clamped text that holds a match, with the match marked", () => {
    act(() => setSearchHighlight({ query: '"needle-in-text"', line: 1, snippet: "the [[needle-in-text]] at the end" }));
    const item = row(1);
    expect([...item.querySelectorAll("mark")].map((m) => m.textContent)).toEqual(["needle-in-text"]);
    expect(screen.getByRole("button", { name: "Show less" })).toBeTruthy();
    expect(screen.queryByTestId("trimmed-match")).toBeNull();
  });

  it("show the hit's snippet when the match is in a part compact mode trims", () => {
    expect(JSON.stringify(compact[2])).not.toContain("needle-in-middle"); // the premise: compact mode trims the middle
    act(() => setSearchHighlight({ query: "needle-in-middle", line: 3, snippet: "…head [[needle-in-middle]] tail…" }));
    row(3);
    const trimmed = screen.getByTestId("trimmed-match");
    expect(trimmed.textContent).toContain("match in the trimmed part");
    expect(trimmed.querySelector("mark")?.textContent).toBe("needle-in-middle");
  });

  it("show no snippet on a row that is not the match the reader is on", () => {
    act(() => setSearchHighlight({ query: "needle-in-middle", line: 1, snippet: "…[[needle-in-middle]]…" }));
    row(3);
    expect(screen.queryByTestId("trimmed-match")).toBeNull();
  });
});
