/** Tests of markdownPlainText (one-line headlines). */
import { describe, expect, it } from "vitest";

import { markdownPlainText } from "@/lib/format/plain-markdown";

describe("markdownPlainText (one-line headlines)", () => {
  it("takes out emphasis, strike-through, code, link and image marks, keeping the words", () => {
    expect(markdownPlainText("Fixed the **login** flow")).toBe("Fixed the login flow");
    expect(markdownPlainText("*really* and _truly_ and __bold__ and ~~gone~~")).toBe("really and truly and bold and gone");
    expect(markdownPlainText("Run `npm test` then ``a ` b``")).toBe("Run npm test then a ` b");
    expect(markdownPlainText("See [the docs](https://x.dev/a) and ![chart](c.png)")).toBe("See the docs and chart");
    expect(markdownPlainText("***both***")).toBe("both");
    expect(markdownPlainText("**Files that returned `<persisted-output>` here:**")).toBe("Files that returned <persisted-output> here:");
  });

  it("takes out heading, quote and bullet marks at line starts only", () => {
    expect(markdownPlainText("## Plan\n- one\n* two\n> quoted\n1. kept")).toBe("Plan\none\ntwo\nquoted\n1. kept");
    expect(markdownPlainText("a - b * c # d")).toBe("a - b * c # d");
  });

  it("keeps what only looks like marks: identifiers, arithmetic, code content, unpaired marks", () => {
    expect(markdownPlainText("rename snake_case_name and a_b")).toBe("rename snake_case_name and a_b");
    expect(markdownPlainText("2 * 3 * 4")).toBe("2 * 3 * 4");
    expect(markdownPlainText("edit `__init__.py` and `**kwargs`")).toBe("edit __init__.py and **kwargs");
    expect(markdownPlainText("a preview cut in **the midd")).toBe("a preview cut in **the midd");
    expect(markdownPlainText("")).toBe("");
  });
});
