/**
 * One value per process under `name`, whichever copy of the calling module asks (issue 13:
 * server RSS). Next's server loads a `lib/` module once per bundle layer (instrumentation, route
 * handlers, server components), so a module-level cache meant to be process-wide existed up to
 * three times: the audit ledger's index and the line indexes of a gigabyte session were each held
 * three times in the server's heap. The value lives on `globalThis` under
 * `Symbol.for("casefile:" + name)`, so every copy finds the same one.
 *
 * Share data (maps of plain values) or objects whose errors callers do not tell apart by class:
 * a class instance made by one copy carries that copy's classes (`instanceof` against another
 * copy's class is false).
 */
export function processWide<T>(name: string, make: () => T): T {
  const key = Symbol.for(`casefile:${name}`);
  const store = globalThis as unknown as Record<symbol, T | undefined>;
  return (store[key] ??= make());
}
