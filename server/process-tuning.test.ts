import v8 from "node:v8";

import { afterEach, describe, expect, it, vi } from "vitest";

import { WORKERS_ONLY_ENV } from "@/lib/jsonl/workers";
import { HEAP_GROWING_PERCENT, tuneServerProcess } from "@/server/process-tuning";

describe("tuneServerProcess", () => {
  afterEach(() => vi.restoreAllMocks());

  it("keeps scans off the main thread and collects the heap at a bounded growth", () => {
    const flags = vi.spyOn(v8, "setFlagsFromString").mockImplementation(() => undefined);
    const env: Record<string, string | undefined> = {};
    expect(tuneServerProcess(env)).toEqual({ workersOnly: true, heapGrowingPercent: HEAP_GROWING_PERCENT });
    expect(env[WORKERS_ONLY_ENV]).toBe("1");
    expect(flags).toHaveBeenCalledWith(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  });

  it("leaves what the environment already says", () => {
    const flags = vi.spyOn(v8, "setFlagsFromString").mockImplementation(() => undefined);
    const env: Record<string, string | undefined> = { [WORKERS_ONLY_ENV]: "0", CASEFILE_HEAP_GROWING_PERCENT: "0" };
    expect(tuneServerProcess(env)).toEqual({ workersOnly: false, heapGrowingPercent: 0 });
    expect(flags).not.toHaveBeenCalled();
    expect(tuneServerProcess({ CASEFILE_HEAP_GROWING_PERCENT: "55" }).heapGrowingPercent).toBe(55);
    expect(tuneServerProcess({ CASEFILE_HEAP_GROWING_PERCENT: "lots" }).heapGrowingPercent).toBe(HEAP_GROWING_PERCENT);
  });
});
