// What is wrong with a catalog that fails: its bytes, a file or folder that cannot be written, or a file moved under the process (issue 35).

import { accessSync, constants as fsConstants, existsSync, mkdirSync } from "node:fs";
import path from "node:path";

import { isAppError } from "@/lib/errors";

/**
 * Why a catalog cannot serve: its bytes (`corrupt`: SQLITE_CORRUPT, SQLITE_NOTADB), its file
 * cannot be written (`readonly`), its folder cannot hold it (`place`), or the file was moved under
 * the connection (`moved`: another process set it aside or `prepare --force` deleted it). Null for
 * any other error, which is not the catalog's (a transcript that cannot be read, a bug).
 */
export type CatalogFault = "corrupt" | "readonly" | "place" | "moved";

export function catalogFault(error: unknown): CatalogFault | null {
  if (error instanceof PlaceError) return error.fault;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string" || !code.startsWith("SQLITE_")) return null;
  if (/^SQLITE_(CORRUPT|NOTADB)/.test(code)) return "corrupt";
  if (code === "SQLITE_READONLY_DBMOVED") return "moved";
  if (code.startsWith("SQLITE_READONLY")) return "readonly";
  return code.startsWith("SQLITE_CANTOPEN") ? "place" : null;
}

/** A catalog file or folder that the file system will not let this process write. */
export class PlaceError extends Error {
  constructor(
    readonly fault: "readonly" | "place",
    message: string,
    options: { cause: unknown },
  ) {
    super(message, options);
  }
}

/** What a fault is, for the warning. */
export function faultText(fault: CatalogFault, error: unknown): string {
  const detail = error instanceof PlaceError ? error.message : `${(error as { code?: string }).code ?? "error"}: ${(error as Error).message}`;
  if (fault === "corrupt") return `is corrupt or truncated (${detail})`;
  return `cannot be written (${detail})`;
}

/**
 * A fault of the catalog at `file` once it is sure, else null (look again a moment later, on a new
 * connection): what cannot be written as `access(2)` says (at once); corruption, or an SQLite
 * refusal that `access(2)` does not explain (a folder where the file should be), once `rechecked`.
 */
export function confirmedFault(file: string, fault: CatalogFault, error: unknown, rechecked: boolean): CatalogFault | null {
  if (error instanceof PlaceError) return error.fault;
  if (fault !== "corrupt") {
    const denied = writeFault(file);
    if (denied !== null) return denied;
  }
  if (!rechecked) return null;
  return fault === "corrupt" ? "corrupt" : existsSync(file) ? "readonly" : "place";
}

/** What `access(2)` says cannot be written of a catalog: its folder (`place`), the file (`readonly`), or nothing (null). */
function writeFault(file: string): "place" | "readonly" | null {
  try {
    checkWritable(file);
    return null;
  } catch (error) {
    if (error instanceof PlaceError) return error.fault;
    throw error;
  }
}

/**
 * Makes the catalog's folder and checks that it and an existing catalog file may be written
 * (`access(2)`: it also refuses an immutable file to root, which SQLite would open read-only).
 * @throws PlaceError `place` for the folder, `readonly` for the file.
 */
export function checkWritable(file: string): void {
  const dir = path.dirname(file);
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, fsConstants.W_OK);
  } catch (error) {
    throw new PlaceError("place", `its folder ${dir} cannot be written: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, { cause: error });
  }
  try {
    accessSync(file, fsConstants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT") throw new PlaceError("readonly", `the file cannot be written: ${code ?? String(error)}`, { cause: error });
  }
}

/** An error reading a file (a Node `code` such as EACCES or EIO, or the readers' io_error / not_found), not of the catalog's database (`SQLITE_…`). */
export function isFsError(error: unknown): boolean {
  if (isAppError(error)) return error.code === "io_error" || error.code === "not_found";
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^E[A-Z]+$/.test(code);
}
