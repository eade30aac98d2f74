/** SHA-256 hex digests of line bytes (seed 000 `raw_sha256`). */
import crypto from "node:crypto";

/**
 * SHA-256 hex digest of `bytes` (seed 000 `raw_sha256`). Uses the one-shot `crypto.hash`
 * (Node ≥ 20.12), which skips the Hash object per call; reads hash one digest per line, so the
 * per-call overhead showed in the 2000-line compact window benchmark.
 */
export function sha256Hex(bytes: Uint8Array): string {
  return crypto.hash("sha256", bytes, "hex");
}
