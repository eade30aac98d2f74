import type { AddressInfo } from "node:net";
import net from "node:net";
import type http from "node:http";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { createDashboardServer } from "@/server/serve/dashboard-server";

/*
 * The dashboard's http.Server against raw sockets (issue 35, item 8): what reaches Next and what
 * is answered before it. The handler stands in for Next: it reads the whole body, then answers.
 */

let server: http.Server;
let port = 0;
const handled: string[] = [];

beforeAll(async () => {
  server = createDashboardServer(
    async (request, response) => {
      handled.push(`${request.method} ${request.url}`);
      let bytes = 0;
      for await (const chunk of request) bytes += (chunk as Buffer).byteLength;
      response.writeHead(200, { "content-type": "text/plain" }).end(`read ${bytes}`);
    },
    { requestTimeoutMs: 1_500, headersTimeoutMs: 1_000, checkIntervalMs: 100, bodyLimitBytes: 1024 },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

type Exchange = { response: string; closedAfterMs: number };

/**
 * Writes `head` (CRLF line ends added) and then each of `chunks`, `everyMs` apart while the
 * connection is open; resolves with everything the server sent once it closes the connection,
 * or once `waitMs` has passed (then it is closed here).
 */
function exchange(head: string[], { chunks = [], everyMs = 0, waitMs = 5_000 }: { chunks?: string[]; everyMs?: number; waitMs?: number } = {}): Promise<Exchange> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(port, "127.0.0.1");
    let response = "";
    let timer: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(timer);
      clearTimeout(giveUp);
      resolve({ response, closedAfterMs: Date.now() - started });
    };
    const giveUp = setTimeout(() => socket.destroy(), waitMs);
    socket.setEncoding("latin1");
    socket.on("data", (data: string) => (response += data));
    socket.on("error", () => undefined);
    socket.on("close", done);
    socket.write(`${head.join("\r\n")}\r\n\r\n`);
    const queue = [...chunks];
    const next = () => {
      if (queue.length === 0 || socket.destroyed) return;
      socket.write(queue.shift()!);
      timer = setTimeout(next, everyMs);
    };
    timer = setTimeout(next, everyMs);
  });
}

const status = (response: string): number => Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0);
const header = (response: string, name: string): string | undefined =>
  new RegExp(`^${name}: (.*)$`, "im").exec(response.split("\r\n\r\n")[0]!)?.[1]?.trim();

describe("createDashboardServer", () => {
  it("hands an ordinary request to the handler (Next), body and all", async () => {
    const { response } = await exchange(["POST /api/tools/list_projects HTTP/1.1", `Host: 127.0.0.1:${port}`, "Content-Length: 2", "Connection: close"], { chunks: ["{}"] });
    expect(status(response)).toBe(200);
    expect(response).toContain("read 2");
  });

  it("refuses an absolute-form target with 400 instead of letting Next redirect off-host", async () => {
    for (const target of ["http://evil.com/api/overview", "//evil.com/api/overview", "*", "evil.com:80"]) {
      handled.length = 0;
      const { response } = await exchange([`GET ${target} HTTP/1.1`, `Host: 127.0.0.1:${port}`]);
      expect(status(response), target).toBe(400);
      expect(header(response, "location"), target).toBeUndefined();
      expect(handled, target).toEqual([]);
    }
  });

  it("refuses two Host headers (ours, then evil.com) and a request without Host with 400", async () => {
    handled.length = 0;
    const twice = await exchange(["GET /api/overview HTTP/1.1", `Host: 127.0.0.1:${port}`, "Host: evil.com"]);
    expect(status(twice.response)).toBe(400);
    expect(twice.response).toContain("2 Host headers");
    const none = await exchange(["GET /api/overview HTTP/1.0"]);
    expect(status(none.response)).toBe(400);
    expect(handled).toEqual([]);
  });

  it("answers a Content-Length over the limit with 413 at once and closes, the body unread (not after waiting for it)", async () => {
    handled.length = 0;
    const { response, closedAfterMs } = await exchange(["POST /api/tools/list_projects HTTP/1.1", `Host: 127.0.0.1:${port}`, "Content-Length: 1000000000000"], { chunks: ["0123456789"] });
    expect(status(response)).toBe(413);
    expect(closedAfterMs).toBeLessThan(1_000);
    expect(handled).toEqual([]);
  });

  it("times out a body that trickles in (1 byte at a time): 408 within the request timeout, connection closed", async () => {
    const { response, closedAfterMs } = await exchange(["POST /api/tools/list_projects HTTP/1.1", `Host: 127.0.0.1:${port}`, "Content-Length: 100"], {
      chunks: Array.from({ length: 100 }, () => "x"),
      everyMs: 200,
      waitMs: 10_000,
    });
    expect(status(response)).toBe(408);
    expect(closedAfterMs).toBeGreaterThanOrEqual(1_400);
    expect(closedAfterMs).toBeLessThan(3_500);
  });

  it("times out headers that never end", async () => {
    const socket = net.connect(port, "127.0.0.1");
    const started = Date.now();
    let response = "";
    socket.setEncoding("latin1");
    socket.on("data", (data: string) => (response += data));
    socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
    await new Promise((resolve) => socket.on("close", resolve));
    expect(status(response)).toBe(408);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("its own answers carry the security headers and the strict policy", async () => {
    const { response } = await exchange(["GET http://evil.com/ HTTP/1.1", `Host: 127.0.0.1:${port}`]);
    expect(header(response, "x-content-type-options")).toBe("nosniff");
    expect(header(response, "referrer-policy")).toBe("no-referrer");
    expect(header(response, "x-frame-options")).toBe("DENY");
    expect(header(response, "content-security-policy")).toContain("frame-ancestors 'none'");
    const timedOut = await exchange(["POST / HTTP/1.1", `Host: 127.0.0.1:${port}`, "Content-Length: 5"], { waitMs: 5_000 });
    expect(status(timedOut.response)).toBe(408);
    expect(header(timedOut.response, "x-content-type-options")).toBe("nosniff");
  });
});
