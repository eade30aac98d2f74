/**
 * The push client's requests over Node's http/https with a keep-alive agent (issue 39's push
 * budget): a body is written to the socket as it is, where `fetch` copies each body once more
 * (undici clones a Uint8Array body) and a 2,000-session push spends a fifth of its CPU on that
 * copy and its garbage (bench/team-push.bench.ts).
 */
import http from "node:http";
import https from "node:https";

/** What the push client reads of an answer: a `Response` has it (tests pass `fetch`-shaped stand-ins). */
export type PushResponse = { status: number; ok: boolean; text(): Promise<string> };

/** A request as the push client makes one: `fetch`'s shape, so tests may pass a stand-in. */
export type PushTransport = (url: string, init: RequestInit) => Promise<PushResponse>;

/** Headers and a body of the kinds the push client sends (a JSON string or bytes). */
type SentInit = { method?: string; headers?: Record<string, string>; body?: string | Uint8Array };

/**
 * A transport that keeps up to `sockets` connections open to one server while it is used;
 * `close()` ends them. A connection error rejects with the error (the client reports it as
 * io_error); any HTTP status resolves with the whole answer ({@link PushResponse}), once the request's
 * body was handed to the socket whole (the caller may then reuse its buffer).
 */
export function httpTransport(sockets: number): { send: PushTransport; close(): void } {
  const agents = { "http:": new http.Agent({ keepAlive: true, maxSockets: sockets }), "https:": new https.Agent({ keepAlive: true, maxSockets: sockets }) };
  const send: PushTransport = (url, init) =>
    new Promise<PushResponse>((resolve, reject) => {
      const { method = "GET", headers = {}, body } = init as SentInit;
      const target = new URL(url);
      const agent = target.protocol === "https:" ? agents["https:"] : agents["http:"];
      const bytes = body === undefined ? null : typeof body === "string" ? Buffer.from(body) : body;
      const request = (target.protocol === "https:" ? https : http).request(target, { method, agent, headers: { ...headers, "content-length": String(bytes?.byteLength ?? 0) } }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.once("error", reject);
        response.once("end", async () => {
          // The body's buffer may be reused once this resolves: wait until the socket took all of it (an early answer, 401 or 413, comes before).
          if (!request.writableFinished && !request.destroyed) await new Promise((done) => { request.once("finish", done); request.once("close", done); });
          // Not a web Response: making one loads fetch's implementation (~20 ms of a push's start-up).
          const status = response.statusCode ?? 500;
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({ status, ok: status >= 200 && status < 300, text: () => Promise.resolve(text) });
        });
      });
      request.once("error", reject);
      request.end(bytes ?? undefined);
    });
  return {
    send,
    close() {
      agents["http:"].destroy();
      agents["https:"].destroy();
    },
  };
}
