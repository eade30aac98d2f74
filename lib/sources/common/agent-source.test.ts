import { describe, expect, it } from "vitest";

import { oneLineHeadline } from "@/lib/sources/common/agent-source";

/** The headline as defined: the whole text flattened, then cut. */
function reference(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

describe("oneLineHeadline", () => {
  it("flattens and cuts as the whole text would be, reading only the head of a long one", () => {
    const pieces = ["a", "bc", " ", "  ", "\n", "\t\r\n ", "\u2028", "é", "x".repeat(150), " ".repeat(300), "\n".repeat(500)];
    let seed = 38;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let n = 0; n < 3000; n++) {
      let text = "";
      const parts = next() % 60;
      for (let k = 0; k < parts; k++) text += pieces[next() % pieces.length];
      const max = [1, 2, 5, 40, 200][next() % 5]!;
      expect(oneLineHeadline(text, max)).toBe(reference(text, max));
    }
    expect(oneLineHeadline(`  ${"word ".repeat(1_000_000)}`)).toBe(`${"word ".repeat(40).slice(0, 199)}…`);
    expect(oneLineHeadline(`${"x".repeat(199)}${" ".repeat(5000)}`)).toBe("x".repeat(199));
    expect(oneLineHeadline(`${"x".repeat(200)}${" ".repeat(5000)}y`)).toBe(`${"x".repeat(199)}…`);
  });
});
