/** One value per process, shared by every copy of a module that Next's bundle layers load. */

/**
 * One value per process under `name`, whichever copy of the calling module asks: Next's server
 * loads a `lib/` module once per bundle layer, so a module-level cache would exist up to three
 * times. The value lives on `globalThis` under `Symbol.for("casefile:" + name)`.
 * Share data or objects whose errors callers do not tell apart by class: a class instance made
 * by one copy carries that copy's classes (`instanceof` against another copy's class is false).
 */
export function processWide<T>(name: string, make: () => T): T {
  const key = Symbol.for(`casefile:${name}`);
  const store = globalThis as unknown as Record<symbol, T | undefined>;
  return (store[key] ??= make());
}
