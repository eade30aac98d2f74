/** The closed set of error codes and the AppError that carries them (house style §3.6). */
import * as z from "zod";

/**
 * The closed set of error codes used outside the seed-defined tool results
 * (house style §3.6). Tool results such as `{status:"invalid", errors:[...]}`
 * are values, not errors; AppError is for everything else.
 */
// unauthorized / forbidden: a team server's request without a valid token, or with a role that may not do it (issue 39).
export const ERROR_CODES = ["invalid_input", "not_found", "conflict", "parse_error", "io_error", "internal", "unauthorized", "forbidden"] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export type ErrorDetails = {
  fieldErrors?: Record<string, string[]>;
  formErrors?: string[];
  path?: string;
  line?: number;
  hint?: string;
};
export type ErrorPayload = { code: ErrorCode; message: string } & ErrorDetails;

/** A coded, expected failure thrown by the core and mapped once per adapter. */
export class AppError extends Error {
  override readonly name = "AppError";
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/**
 * True for an AppError, including one made by another copy of this module: the server loads
 * `lib/` once per bundle layer, and objects shared between the copies (lib/cache/process-wide)
 * throw their own copy's class.
 */
export const isAppError = (e: unknown): e is AppError =>
  e instanceof AppError || (e instanceof Error && e.name === "AppError" && (ERROR_CODES as readonly unknown[]).includes((e as { code?: unknown }).code));

/** Serializable form of an AppError, identical through every door. */
export const toErrorPayload = (e: AppError): ErrorPayload => ({ code: e.code, message: e.message, ...e.details });

/** Converts a zod error into one `invalid_input` AppError with flattened field errors. */
export function invalidInput(error: z.ZodError, message = "Some fields are invalid."): AppError {
  const { fieldErrors, formErrors } = z.flattenError(error);
  return new AppError("invalid_input", message, {
    fieldErrors: fieldErrors as Record<string, string[]>,
    formErrors,
  });
}
