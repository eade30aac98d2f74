/** Tests of safeCut. */
import { describe, expect, it } from "vitest";

import { safeCut } from "@/lib/jsonl/cut-string";

describe("safeCut", () => {
  const cut = (text: string, at: number): string => {
    const b = Buffer.from(text, "utf8");
    return b.toString("utf8", 0, safeCut(b, 0, at));
  };

  it("never splits a UTF-8 sequence", () => {
    // "aaaaaaé€" : é is 2 bytes (6–7), € 3 bytes (8–10).
    expect(cut("aaaaaaé€b", 7)).toBe("aaaaaa");
    expect(cut("aaaaaaé€b", 8)).toBe("aaaaaaé");
    expect(cut("aaaaaaé€b", 10)).toBe("aaaaaaé");
    expect(cut("aaaaaaé€b", 11)).toBe("aaaaaaé€");
  });

  it("never splits an escape or a backslash run", () => {
    expect(cut(String.raw`aaaaa\u00e9bbbb`, 8)).toBe("aaaaa");
    expect(cut(String.raw`aaaaaaaa\\\"bbbb`, 10)).toBe("aaaaaaaa");
    expect(cut("aaaaaaaaaaaaaaaa", 12)).toBe("aaaaaaaaaaaa");
  });
});
