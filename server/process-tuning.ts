import v8 from "node:v8";

import { WORKERS_ONLY_ENV } from "@/lib/jsonl/workers";

/**
 * How far V8 lets the dashboard's heap grow past what survived the last full collection before
 * it collects again, in percent (V8's `--heap-growing-percent`). V8's own factor goes up to 4×
 * on a machine with gigabytes free, far past the server's RSS goal while windows over a
 * gigabyte session allocate tens of MB of short-lived records per call.
 * `CASEFILE_HEAP_GROWING_PERCENT` overrides it (0 leaves V8's default).
 */
export const HEAP_GROWING_PERCENT = 30;

/**
 * Tunes a long-running server process once at start: the dashboard (Next's `instrumentation.ts`)
 * and the MCP server (`runStdioMcp`):
 *  - scans split across worker threads keep the main thread free ({@link WORKERS_ONLY_ENV}),
 *    unless the environment already says otherwise;
 *  - the heap is collected at {@link HEAP_GROWING_PERCENT} growth instead of V8's up-to-4×.
 * V8 reads that flag at every full collection, so setting it after start takes effect; it is
 * process-wide (worker isolates follow it too). Never throws.
 */
export function tuneServerProcess(env: Record<string, string | undefined> = process.env): { workersOnly: boolean; heapGrowingPercent: number } {
  env[WORKERS_ONLY_ENV] ??= "1";
  const raw = Number(env.CASEFILE_HEAP_GROWING_PERCENT ?? HEAP_GROWING_PERCENT);
  const heapGrowingPercent = Number.isInteger(raw) && raw >= 0 ? raw : HEAP_GROWING_PERCENT;
  if (heapGrowingPercent > 0) v8.setFlagsFromString(`--heap-growing-percent=${heapGrowingPercent}`);
  return { workersOnly: env[WORKERS_ONLY_ENV] === "1", heapGrowingPercent };
}
