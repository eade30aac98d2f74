/** Tests of processWide. */
import { describe, expect, it } from "vitest";

import { processWide } from "@/lib/cache/process-wide";

describe("processWide", () => {
  it("makes the value once per name and hands the same one to every caller", () => {
    let made = 0;
    const make = () => ({ n: ++made });
    const a = processWide("test:process-wide", make);
    const b = processWide("test:process-wide", make);
    expect(b).toBe(a);
    expect(made).toBe(1);
    expect(processWide("test:process-wide-other", make)).not.toBe(a);
    // Another copy of this module reaches the value through the registered symbol.
    expect((globalThis as unknown as Record<symbol, unknown>)[Symbol.for("casefile:test:process-wide")]).toBe(a);
  });
});
