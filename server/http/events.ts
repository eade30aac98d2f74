import "server-only";

import { getChangeFeed } from "@/lib/ledger/change-feed";
import { getCoreContext } from "@/server/core";

const HEARTBEAT_MS = 15_000;

/**
 * `GET /api/events`: Server-Sent Events that push `change` whenever an evidence card, a
 * synthesis envelope, an index or the metadata of the workspace changes, whoever wrote it
 * (issue 4, "Live"), and `audit` whenever the audit ledger grows (issue 8). Each event's data is
 * `{version, at, scope}`; a comment line every 15 s keeps
 * proxies and the browser from timing the stream out. The subscription ends with the request.
 */
export function workspaceEventsHandler(request: Request): Response {
  const feed = getChangeFeed(getCoreContext().workspaceRoot);
  const encoder = new TextEncoder();
  let cleanup = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          cleanup();
        }
      };
      send("retry: 1000\n: connected\n\n");
      const unsubscribe = feed.subscribe((change) => send(`event: ${change.scope === "audit" ? "audit" : "change"}\ndata: ${JSON.stringify(change)}\n\n`));
      const heartbeat = setInterval(() => send(": keep-alive\n\n"), HEARTBEAT_MS);
      cleanup = () => {
        clearInterval(heartbeat);
        unsubscribe();
      };
      request.signal.addEventListener("abort", () => {
        cleanup();
        try {
          controller.close();
        } catch {
          /* already closed */
        }
      });
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(stream, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store, no-transform", connection: "keep-alive" },
  });
}
