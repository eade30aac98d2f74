/** A source file read whole for export, with the stat prepare's kernel copy checks it against (issue 38). */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";

import type { ExportScratch, FileAsRead } from "@/lib/sources/common/agent-source";

/**
 * The file's bytes (its size when opened, as readFileSync reads; into `scratch`'s slot 0 when
 * given: valid until the next export given it) and its stat taken just before they were read, or
 * null when it cannot be opened or read (`error`: the errno code). One open, fstat and read: no
 * stat of the path besides.
 */
export function readAsRead(file: string, scratch?: ExportScratch): { bytes: Buffer; asRead: FileAsRead } | { error: string } {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (error) {
    return { error: errorCode(error) };
  }
  try {
    const { size, mtimeMs, mode } = fstatSync(fd);
    const into = scratch?.buffer(0, size) ?? Buffer.allocUnsafe(size);
    let got = 0;
    for (let n = 1; got < size && n > 0; got += n) n = readSync(fd, into, got, size - got, got);
    return { bytes: into.subarray(0, got), asRead: { path: file, size, mtimeMs, mode } };
  } catch (error) {
    return { error: errorCode(error) };
  } finally {
    closeSync(fd);
  }
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? String(error);
}
