import "server-only";

import { unstable_rethrow } from "next/navigation";

import { type ErrorPayload, isAppError, toErrorPayload } from "@/lib/errors";

/**
 * The one result shape of every server action (house style §3.6, Do-this #6). Seed-defined
 * results (`{status:"invalid"|"conflict", errors}`) are values inside `data`; `ok: false` is for
 * AppErrors and unexpected failures only.
 */
export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: ErrorPayload; values?: Record<string, string> };

/**
 * Runs a core call and converts what it throws into an ActionResult: AppErrors keep their code,
 * anything else becomes `internal` (logged server-side). Next's control-flow errors
 * (redirect, notFound) are rethrown.
 */
export async function runAction<T>(fn: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, data: await fn() };
  } catch (error) {
    unstable_rethrow(error);
    if (isAppError(error)) return { ok: false, error: toErrorPayload(error) };
    console.error("[action] unexpected", error);
    return { ok: false, error: { code: "internal", message: "Something went wrong — see the server log." } };
  }
}

/** FormData → plain strings, dropping Next's internal `$ACTION_` keys. */
export function formValues(formData: FormData): Record<string, string> {
  return Object.fromEntries([...formData].filter(([k, v]) => !k.startsWith("$ACTION_") && typeof v === "string")) as Record<string, string>;
}
