import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";

import { useHydrated, useVirtualRowCount } from "./use-hydrated";

function Probe({ count, cap }: { count: number; cap: number }) {
  return createElement("output", null, `${String(useHydrated())}:${useVirtualRowCount(count, cap)}`);
}

describe("useVirtualRowCount on the server (issue 13: a server render measures only a first screen of rows)", () => {
  it("tells the virtualizer at most the pre-hydration rows, never more than there are", () => {
    expect(renderToString(createElement(Probe, { count: 318_897, cap: 200 }))).toBe("<output>false:200</output>");
    expect(renderToString(createElement(Probe, { count: 37, cap: 200 }))).toBe("<output>false:37</output>");
    expect(renderToString(createElement(Probe, { count: 0, cap: 200 }))).toBe("<output>false:0</output>");
  });
});
