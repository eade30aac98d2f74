import { describe, expect, it } from "vitest";

import { readLimited } from "@/lib/security/request-limits";

/** A POST whose body arrives in `chunks`, with `length` as its declared Content-Length (none when null). */
function request(chunks: string[], length: number | null): Request {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });
  const headers = length === null ? undefined : { "content-length": String(length) };
  return new Request("http://127.0.0.1/x", { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

const text = (bytes: Uint8Array | null) => (bytes === null ? null : Buffer.from(bytes).toString("utf8"));

describe("readLimited (the tool and push doors' body reader)", () => {
  it("returns the body whole, whether its length is declared, declared short, declared long or not at all", async () => {
    expect(text(await readLimited(request(["ab", "cd", "e"], 5), 100))).toBe("abcde");
    expect(text(await readLimited(request(["ab", "cd", "e"], null), 100))).toBe("abcde");
    // A Content-Length that lies either way: the bytes that came, in order.
    expect(text(await readLimited(request(["ab", "cd", "e"], 3), 100))).toBe("abcde");
    expect(text(await readLimited(request(["ab", "cd", "e"], 9), 100))).toBe("abcde");
  });

  it("stops at the limit (null), however the length is declared", async () => {
    expect(await readLimited(request(["abc", "def"], 6), 6)).toBeNull();
    expect(await readLimited(request(["abc", "def"], 2), 5)).toBeNull();
    expect(await readLimited(request(["abc", "def"], null), 4)).toBeNull();
    expect(text(await readLimited(request(["abc", "def"], 6), 7))).toBe("abcdef");
  });
});
