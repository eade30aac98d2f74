import { describe, expect, it } from "vitest";

import { formatViewerSearch, parseViewerParams } from "./viewer-params";

describe("viewer params in the URL", () => {
  it("round-trips mode and filters, keeping other parameters", () => {
    const search = formatViewerSearch(new URLSearchParams("agent=a1"), { mode: "full", hidden: new Set(["system", "progress"]) });
    expect(search).toBe("?agent=a1&mode=full&hide=progress%2Csystem");
    expect(parseViewerParams(new URLSearchParams(search))).toEqual({ mode: "full", hidden: new Set(["progress", "system"]) });
  });

  it("falls back to compact with nothing hidden, and writes no parameters for it", () => {
    expect(parseViewerParams(new URLSearchParams("mode=raw&hide=conversation,bogus"))).toEqual({ mode: "compact", hidden: new Set() });
    expect(formatViewerSearch(new URLSearchParams("mode=full&hide=system"), { mode: "compact", hidden: new Set() })).toBe("");
  });
});
