import { describe, expect, it } from "vitest";

import { ByteLru } from "@/lib/cache/byte-lru";

describe("ByteLru", () => {
  it("evicts the least recently used values once their bytes pass the budget", () => {
    const cache = new ByteLru<string, number>(100);
    cache.set("a", 1, 40);
    cache.set("b", 2, 40);
    expect(cache.get("a")).toBe(1); // a is now the most recently used
    cache.set("c", 3, 40);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe(1);
    expect(cache.get("c")).toBe(3);
    expect(cache.usedBytes).toBe(80);
  });

  it("bounds by bytes, not entries: many small values or one big one", () => {
    const cache = new ByteLru<number, string>(1000);
    for (let i = 0; i < 500; i++) cache.set(i, "x", 2);
    expect(cache.size).toBe(500);
    cache.set(-1, "big", 999);
    expect(cache.size).toBe(1);
    expect(cache.get(-1)).toBe("big");
    expect(cache.usedBytes).toBeLessThanOrEqual(1000);
  });

  it("keeps nothing larger than the budget, and replaces a key's value", () => {
    const cache = new ByteLru<string, string>(10);
    cache.set("k", "small", 5);
    expect(cache.set("k", "huge", 11)).toBe(false);
    expect(cache.get("k")).toBeUndefined();
    expect(cache.usedBytes).toBe(0);
    expect(cache.set("k", "again", 10)).toBe(true);
    cache.set("k", "replaced", 3);
    expect(cache.get("k")).toBe("replaced");
    expect(cache.usedBytes).toBe(3);
    cache.clear();
    expect(cache.size).toBe(0);
  });
});
