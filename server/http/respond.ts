import "server-only";

import { isAppError, toErrorPayload, type ErrorCode } from "@/lib/errors";

const STATUS: Record<ErrorCode, number> = { invalid_input: 400, not_found: 404, conflict: 409, parse_error: 422, io_error: 500, internal: 500, unauthorized: 401, forbidden: 403 };

/** Maps a thrown error to its HTTP response: AppError by code, anything else a generic 500. */
export function errorResponse(error: unknown): Response {
  if (isAppError(error)) return Response.json({ error: toErrorPayload(error) }, { status: STATUS[error.code] });
  console.error("[http] unexpected", error);
  return Response.json({ error: { code: "internal", message: "Something went wrong — see the server log." } }, { status: 500 });
}

/** A JSON response whose body is exactly `text` (the tool's canonical serialization). */
export function jsonText(text: string, status: number): Response {
  return new Response(text, { status, headers: { "content-type": "application/json; charset=utf-8" } });
}
