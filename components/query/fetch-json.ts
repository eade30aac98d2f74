import { AppError, ERROR_CODES, type ErrorCode, type ErrorDetails } from "@/lib/errors";

type InvalidBody = { status: "invalid"; errors: { field: string; message: string; hint?: string }[] };
type ErrorBody = { error: { code: string; message: string } & ErrorDetails };

const isErrorCode = (code: unknown): code is ErrorCode => ERROR_CODES.includes(code as ErrorCode);

function isInvalidBody(body: unknown): body is InvalidBody {
  return (body as InvalidBody | null)?.status === "invalid" && Array.isArray((body as InvalidBody).errors);
}

function isErrorBody(body: unknown): body is ErrorBody {
  const error = (body as ErrorBody | null)?.error;
  return typeof error === "object" && error !== null && typeof error.message === "string";
}

function codeForStatus(status: number): ErrorCode {
  if (status === 400) return "invalid_input";
  if (status === 404) return "not_found";
  if (status === 409) return "conflict";
  if (status === 422) return "parse_error";
  return "internal";
}

/** Rebuilds the AppError the server mapped to this response, so UI code can switch on `code`. */
export function toAppError(status: number, body: unknown): AppError {
  if (isErrorBody(body)) {
    const { code, message, ...details } = body.error;
    return new AppError(isErrorCode(code) ? code : codeForStatus(status), message, details);
  }
  if (isInvalidBody(body)) {
    // The seed's `{status:"invalid"}` value: keep every field error, not just the first.
    const fieldErrors: Record<string, string[]> = {};
    for (const e of body.errors) (fieldErrors[e.field] ??= []).push(e.hint ? `${e.message} (${e.hint})` : e.message);
    const message = body.errors.map((e) => `${e.field}: ${e.message}`).join("; ") || "Invalid request.";
    return new AppError("invalid_input", message, { fieldErrors, hint: body.errors[0]?.hint });
  }
  return new AppError(codeForStatus(status), `Request failed with HTTP ${status}.`);
}

/** GETs JSON; non-2xx responses become AppError. Aborts (query cancellation) pass through untouched. */
export async function fetchJson<T>(url: string, init?: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, headers: { accept: "application/json", ...init?.headers } });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new AppError("io_error", "Could not reach the Casefile server.", {}, { cause: error });
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) throw toAppError(response.status, body);
  if (body === null) throw new AppError("internal", "The server sent an empty or non-JSON response.");
  return body as T;
}

/** Builds a query string, skipping undefined and empty values. */
export function toSearchParams(values: Record<string, string | number | undefined | null>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined && value !== null && value !== "") params.set(key, String(value));
  }
  return params.toString();
}
