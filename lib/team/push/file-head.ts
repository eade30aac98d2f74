/** The head hash both ends of a push compare: SHA-256 of a file's first min(size, 64 KiB) bytes. */
import { createHash } from "node:crypto";
import { closeSync, openSync, readSync } from "node:fs";

import { HEAD_BYTES } from "@/lib/team/push/protocol";

/**
 * SHA-256 (lower-case hex) of the first min(`size`, {@link HEAD_BYTES}) bytes of `file`, as the
 * manifest's `head_sha256`. Read on the calling thread: a push hashes thousands of small heads,
 * where a thread-pool round trip each cost more than the read. A file shorter than `size` now is
 * hashed over what it has. @throws the fs error when the file cannot be read.
 */
export function headSha256(file: string, size: number): string {
  const want = Math.min(size, HEAD_BYTES);
  const buf = Buffer.allocUnsafe(want);
  const fd = openSync(file, "r");
  let got = 0;
  try {
    while (got < want) {
      const n = readSync(fd, buf, got, want - got, got);
      if (n === 0) break;
      got += n;
    }
  } finally {
    closeSync(fd);
  }
  return createHash("sha256").update(buf.subarray(0, got)).digest("hex");
}
