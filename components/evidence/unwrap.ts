import { AppError, type ErrorPayload } from "@/lib/errors";

// NOTE: structurally the same as server/action.ts's ActionResult, which UI code may not import
// (lint: components import server actions only). Belongs in components/query/ once shared.
type ActionResultLike<T> = { ok: true; data: T } | { ok: false; error: ErrorPayload };

/** ActionResult → data, or a thrown AppError so TanStack Query's `error` / `onError` apply. */
export function unwrap<T>(result: ActionResultLike<T>): T {
  if (!result.ok) {
    const { code, message, ...details } = result.error;
    throw new AppError(code, message, details);
  }
  return result.data;
}
