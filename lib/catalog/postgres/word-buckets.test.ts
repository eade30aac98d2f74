/** The PostgreSQL store's bucket numbers are the index words of lib/catalog/trigram-tokens, read back. */
import { describe, expect, it } from "vitest";

import { bucketLiteral, wordBucket } from "@/lib/catalog/postgres/word-buckets";
import { lineTokens, termTokens, WordPacker } from "@/lib/catalog/trigram-tokens";

const TEXTS = ["TypeError: Cannot read properties of undefined", "ab", "", "Ünïcödé ΣΊΣΥΦΟΣ 𝒳𝒴𝒵 tab\there", "a".repeat(50)];

describe("word buckets", () => {
  it("reads every word back to a distinct 20-bit bucket, one per word", () => {
    for (const text of TEXTS) {
      const words = termTokens(text);
      const buckets = words.map(wordBucket);
      expect(new Set(buckets).size).toBe(words.length);
      for (const b of buckets) expect(b >= 0 && b < 1 << 20).toBe(true);
    }
  });

  it("gives a line the buckets of the words lineTokens writes for it, as an integer[] literal", () => {
    const packer = new WordPacker();
    for (const text of TEXTS) packer.add(text);
    const packed = packer.take();
    TEXTS.forEach((text, k) => {
      const words = lineTokens(text).split(" ").filter((w) => w !== "");
      expect(bucketLiteral(packed, k)).toBe(`{${words.map(wordBucket).join(",")}}`);
    });
  });

  it("a line holding a term holds the term's buckets (the candidates' contract)", () => {
    const packer = new WordPacker();
    packer.add("the server said: TypeError: Cannot read properties of undefined (reading 'x')");
    const line = new Set(bucketLiteral(packer.take(), 0).slice(1, -1).split(",").map(Number));
    for (const term of ["typeerror", "Cannot READ", "undefined (reading"]) for (const b of termTokens(term).map(wordBucket)) expect(line.has(b)).toBe(true);
  });

  it("refuses what is not an index word", () => {
    expect(() => wordBucket("abc")).toThrow(RangeError);
    expect(() => wordBucket("abcz")).toThrow(RangeError);
  });
});
