import { describe, expect, it } from "vitest";

import { geminiUsage } from "@/lib/sources/gemini-cli/usage";

describe("geminiUsage", () => {
  it("splits cached out of input and reports thoughts apart (control_flash workspace line 17)", () => {
    const u = geminiUsage({ input: 8879, output: 39, cached: 6132, thoughts: 98, tool: 0, total: 9016 }, "gemini-3-flash-preview")!;
    expect(u).toEqual({ model: "gemini-3-flash-preview", input: 2747, output: 39, cacheRead: 6132, cacheWrite: 0, reasoning: 98, costUsd: null, approximate: false });
    expect(u.input + u.cacheRead + u.output + u.reasoning).toBe(9016);
  });

  it("adds tool-use prompt tokens (outside input, inside total) to fresh input", () => {
    const u = geminiUsage({ input: 12000, output: 150, cached: 8000, thoughts: 40, tool: 10, total: 12200 }, "gemini-2.5-pro")!;
    expect(u).toMatchObject({ input: 4010, cacheRead: 8000, output: 150, reasoning: 40 });
    expect(u.input + u.cacheRead + u.output + u.reasoning).toBe(12200);
  });

  it("counts a message without a model under model null, and reads missing or odd fields as 0", () => {
    expect(geminiUsage({ input: 1500, output: 200, cached: 100, thoughts: 50, total: 1850 }, undefined)).toMatchObject({ model: null, input: 1400, reasoning: 50 });
    expect(geminiUsage({ input: "12", output: -3, cached: 50 }, "")).toMatchObject({ model: null, input: 0, output: 0, cacheRead: 50 });
  });

  it("has no usage when tokens are absent or still null", () => {
    expect(geminiUsage(undefined, "m")).toBeNull();
    expect(geminiUsage(null, "m")).toBeNull();
  });
});
