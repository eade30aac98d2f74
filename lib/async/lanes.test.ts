/** Tests of the lanes loop. */
import { describe, expect, it } from "vitest";

import { inLanes } from "./lanes";

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("inLanes", () => {
  it("runs every item once, at most `lanes` at a time, starting them in list order", async () => {
    const started: number[] = [];
    let running = 0;
    let most = 0;
    const lanesSeen = new Set<number>();
    await inLanes([5, 1, 4, 2, 3, 0, 2], 3, async (ms, index, lane) => {
      started.push(index);
      lanesSeen.add(lane);
      most = Math.max(most, ++running);
      await tick(ms);
      running--;
    });
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(most).toBe(3);
    expect([...lanesSeen].sort()).toEqual([0, 1, 2]);
  });

  it("starts nothing after a failure and throws the first error once every lane has stopped", async () => {
    const started: number[] = [];
    const finished: number[] = [];
    const run = inLanes([0, 1, 2, 3, 4, 5], 2, async (_, index) => {
      started.push(index);
      await tick(index === 1 ? 1 : 20);
      if (index === 1) throw new Error("first");
      if (index === 0) throw new Error("second");
      finished.push(index);
    });
    await expect(run).rejects.toThrow("first");
    // Item 1 failed while item 0 ran: item 0 settled before the call did, and no item after 2 started.
    expect(started).toEqual([0, 1]);
    expect(finished).toEqual([]);
  });

  it("does nothing for no items and works with one lane", async () => {
    const seen: string[] = [];
    await inLanes([], 4, async () => void seen.push("never"));
    await inLanes(["a", "b"], 1, async (item) => void seen.push(item));
    expect(seen).toEqual(["a", "b"]);
  });
});
