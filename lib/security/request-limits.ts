/** Bounds on what the HTTP door accepts of a request: its body, and what a refusal keeps of it. */

/**
 * The largest request body the dashboard accepts: 10 MiB (a tool input, `POST /api/tools/<name>`;
 * nothing else takes more). A body of this size or more is refused with 413: by the server before
 * Next sees the request when its Content-Length says so (server/serve/dashboard-server), by the
 * tool door as it streams otherwise (server/http/tools).
 */
export const HTTP_BODY_LIMIT_BYTES = 10 * 1024 * 1024;

/** The longest path and reason a refusal record keeps (a header may be 16 KiB; the record stays small). */
const RECORD_TEXT_LIMIT = 256;

/**
 * What the audit ledger keeps of a request refused at the door (issue 35, item 3): method, path,
 * reason and the declared body size, each bounded, never the body. The body is not read: a
 * refused request cannot fill the disk, however large it is.
 */
export type RefusedRequestRecord = {
  refused_request: { method: string; path: string; reason: string; content_length: number | null };
};

/**
 * The fixed-size record of a refused request ({@link RefusedRequestRecord}): `path` and `reason`
 * cut to 256 characters; `contentLength` is the Content-Length header, null when absent or not a
 * number (a chunked body's size is unknown, and it is not read to learn it).
 */
export function refusedRequestRecord(method: string, path: string, reason: string, contentLength: string | null): RefusedRequestRecord {
  const declared = contentLength === null || contentLength.trim() === "" ? NaN : Number(contentLength);
  return {
    refused_request: {
      method: method.slice(0, 16),
      path: cut(path),
      reason: cut(reason),
      content_length: Number.isSafeInteger(declared) && declared >= 0 ? declared : null,
    },
  };
}

const cut = (text: string): string => (text.length > RECORD_TEXT_LIMIT ? `${text.slice(0, RECORD_TEXT_LIMIT - 1)}…` : text);

/**
 * The request body, or null as soon as `limit` bytes have arrived (the rest is not read): the
 * tool door's and the team push door's reader. With a declared length under the limit the body is
 * copied once, into `scratch` when it fits (a push's 8 MiB batches: a fresh buffer each cost page
 * faults and collections; the caller owns `scratch` until it is done with the answer), else into
 * a buffer of its own.
 */
export async function readLimited(request: Request, limit: number, scratch?: Buffer): Promise<Uint8Array | null> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  const known = Number.isSafeInteger(declared) && declared > 0 && declared < limit;
  let into = !known ? null : scratch && declared <= scratch.byteLength ? scratch.subarray(0, declared) : Buffer.allocUnsafe(declared);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (total + value.byteLength >= limit) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    if (into !== null && total + value.byteLength <= into.byteLength) into.set(value, total);
    else {
      // More than declared: the rest as chunks, behind what was copied.
      if (into !== null) chunks.push(into.subarray(0, total));
      into = null;
      chunks.push(value);
    }
    total += value.byteLength;
  }
  if (into !== null) return total === into.byteLength ? into : into.subarray(0, total);
  return Buffer.concat(chunks, total);
}
