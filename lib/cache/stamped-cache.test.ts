/** Tests of StampedCache: stamps, byte budget, in-flight sharing. */
import { describe, expect, it } from "vitest";

import { StampedCache, stampedCache } from "@/lib/cache/stamped-cache";

describe("StampedCache", () => {
  it("evicts the least recently used values once their bytes pass the budget", () => {
    const cache = new StampedCache<number>(100);
    cache.set("a", "", 1, 40);
    cache.set("b", "", 2, 40);
    expect(cache.get("a")).toBe(1); // a is now the most recently used
    cache.set("c", "", 3, 40);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe(1);
    expect(cache.get("c")).toBe(3);
    expect(cache.usedBytes).toBe(80);
  });

  it("bounds by bytes, not entries: many small values or one big one", () => {
    const cache = new StampedCache<string>(1000);
    for (let i = 0; i < 500; i++) cache.set(String(i), "", "x", 2);
    expect(cache.size).toBe(500);
    cache.set("-1", "", "big", 999);
    expect(cache.size).toBe(1);
    expect(cache.get("-1")).toBe("big");
    expect(cache.usedBytes).toBeLessThanOrEqual(1000);
  });

  it("keeps nothing larger than the entry limit, and replaces a key's value", () => {
    const cache = new StampedCache<string>(10);
    cache.set("k", "", "small", 5);
    expect(cache.set("k", "", "huge", 11)).toBe(false);
    expect(cache.get("k")).toBeUndefined();
    expect(cache.usedBytes).toBe(0);
    expect(cache.set("k", "", "again", 10)).toBe(true);
    cache.set("k", "", "replaced", 3);
    expect(cache.get("k")).toBe("replaced");
    expect(cache.usedBytes).toBe(3);
    const limited = new StampedCache<string>(100, { maxEntryBytes: 12 });
    expect(limited.set("k", "", "v", 13)).toBe(false);
    expect(limited.set("k", "", "v", 12)).toBe(true);
    cache.clear();
    expect(cache.size).toBe(0);
    expect(new StampedCache<string>(0).set("k", "", "v", 0)).toBe(false);
  });

  it("a value is found only with the stamp it was stored for", () => {
    const cache = new StampedCache<string>(100);
    cache.set("file", "size=1", "old", 10);
    expect(cache.get("file", "size=1")).toBe("old");
    expect(cache.get("file", "size=2")).toBeUndefined();
  });

  it("concurrent builds of one key and stamp share one build; another stamp builds again; a failure is not kept", async () => {
    const cache = new StampedCache<string>(100);
    let builds = 0;
    const build = (value: string) => async () => {
      builds += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { value, bytes: 10 };
    };
    const [a, b] = await Promise.all([cache.getOrBuild("k", "s1", build("one")), cache.getOrBuild("k", "s1", build("two"))]);
    expect([a, b, builds]).toEqual(["one", "one", 1]);
    expect(await cache.getOrBuild("k", "s1", build("three"))).toBe("one");
    expect(await cache.getOrBuild("k", "s2", build("four"))).toBe("four");
    expect(builds).toBe(2);
    await expect(cache.getOrBuild("x", "s", () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await cache.getOrBuild("x", "s", build("after"))).toBe("after");
  });

  it("stampedCache gives one cache per name per process", () => {
    const name = `test:${Math.random()}`;
    expect(stampedCache<string>(name, 10)).toBe(stampedCache<string>(name, 20));
  });
});
