/** What a new process sees, for a test: fresh modules and no process-wide values. */
import { vi } from "vitest";

/**
 * What a new process sees, for a test: a fresh module graph (`vi.resetModules`, so the next
 * dynamic imports load every module again) and none of the values lib/cache/process-wide keeps
 * on `globalThis` for every copy of a module (the scans, line indexes and records in memory).
 * Call it before the imports, while nothing of the test's runs (worker slots are among them).
 */
export function freshProcess(): void {
  vi.resetModules();
  const store = globalThis as unknown as Record<symbol, unknown>;
  for (const key of Object.getOwnPropertySymbols(store)) {
    if (key.description?.startsWith("casefile:")) delete store[key];
  }
}
