/** Tests of humanDuration. */
import { describe, expect, it } from "vitest";

import { humanDuration } from "@/lib/format/duration";

describe("humanDuration", () => {
  it("reads seconds in at most two units, singular for one", () => {
    expect([0, 1, 45, 720, 3600, 3900, 86_400, 93_600, 266_400, -5].map(humanDuration)).toEqual([
      "0 seconds",
      "1 second",
      "45 seconds",
      "12 minutes",
      "1 hour",
      "1 hour 5 minutes",
      "1 day",
      "1 day 2 hours",
      "3 days 2 hours",
      "0 seconds",
    ]);
  });
});
