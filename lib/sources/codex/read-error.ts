/** fs errors of a transcript read mapped to AppError. */
import { AppError } from "@/lib/errors";

/**
 * Maps an fs error raised while reading a transcript to AppError (`not_found` for ENOENT,
 * `io_error` otherwise); anything without an errno code is a bug and is returned unchanged.
 */
export function toTranscriptReadError(filePath: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== "string") return error;
  return code === "ENOENT"
    ? new AppError("not_found", `Transcript not found: ${filePath}`, { path: filePath }, { cause: error })
    : new AppError("io_error", `Cannot read transcript ${filePath}: ${String(error)}`, { path: filePath }, { cause: error });
}
