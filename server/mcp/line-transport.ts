import process from "node:process";
import type { Readable, Writable } from "node:stream";

import { deserializeMessage, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** The largest MCP message (one JSON-RPC line) the stdio server accepts: 10 MiB. */
export const MAX_MCP_MESSAGE_BYTES = 10 * 1024 * 1024;

/** JSON-RPC "Invalid Request". */
const INVALID_REQUEST = -32600;
const PARSE_ERROR = -32700;
const EDGE = 256;

/**
 * The stdio transport of `casefile mcp`: newline-delimited JSON-RPC like the SDK's, but a message
 * over {@link MAX_MCP_MESSAGE_BYTES} is discarded as it streams in (never buffered whole) and
 * answered with a JSON-RPC error naming the limit, and the session keeps serving. The SDK's
 * transport closed the session silently at 10.1 MB and hung at 10.0 MB (issue 8 probe). The
 * error carries the request's id when it can be read from the line's first or last bytes (the
 * SDK client writes `"jsonrpc":"2.0","id":N` last), so the client's pending call fails at once.
 */
export class LineStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private chunks: Buffer[] = [];
  private size = 0;
  private oversize: { bytes: number; head: string; tail: Buffer } | null = null;
  private readonly ondata = (chunk: Buffer) => this.take(chunk);
  private readonly onstreamerror = (error: Error) => this.onerror?.(error);

  constructor(private readonly stdin: Readable = process.stdin, private readonly stdout: Writable = process.stdout, private readonly maxBytes = MAX_MCP_MESSAGE_BYTES) {}

  async start(): Promise<void> {
    this.stdin.on("data", this.ondata);
    this.stdin.on("error", this.onstreamerror);
    this.stdin.on("end", () => void this.close());
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(serializeMessage(message))) resolve();
      else this.stdout.once("drain", resolve);
    });
  }

  async close(): Promise<void> {
    this.stdin.off("data", this.ondata);
    this.stdin.off("error", this.onstreamerror);
    if (this.stdin.listenerCount("data") === 0) this.stdin.pause();
    this.chunks = [];
    this.onclose?.();
  }

  private take(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      this.add(chunk.subarray(start, nl));
      this.endLine();
      start = nl + 1;
    }
    if (start < chunk.length) this.add(chunk.subarray(start));
  }

  private add(part: Buffer): void {
    if (part.length === 0) return;
    if (this.oversize) {
      this.oversize.bytes += part.length;
      this.oversize.tail = Buffer.concat([this.oversize.tail, part]).subarray(-EDGE);
      return;
    }
    this.chunks.push(part);
    this.size += part.length;
    if (this.size > this.maxBytes) {
      const all = Buffer.concat(this.chunks);
      this.oversize = { bytes: all.length, head: all.subarray(0, EDGE).toString("utf8"), tail: Buffer.from(all.subarray(-EDGE)) };
      this.chunks = [];
      this.size = 0;
    }
  }

  private endLine(): void {
    if (this.oversize) {
      const { bytes, head, tail } = this.oversize;
      this.oversize = null;
      const limitMb = (this.maxBytes / 1024 / 1024).toFixed(0);
      void this.send({
        jsonrpc: "2.0",
        id: requestId(head, tail.toString("utf8")),
        error: { code: INVALID_REQUEST, message: `message of ${bytes} bytes exceeds the ${limitMb} MiB (${this.maxBytes} bytes) limit of casefile mcp; it was discarded`, data: { limit_bytes: this.maxBytes } },
      } as unknown as JSONRPCMessage); // NOTE: JSON-RPC allows id null for an unreadable request; the SDK's type does not.
      return;
    }
    const line = Buffer.concat(this.chunks).toString("utf8").replace(/\r$/, "");
    this.chunks = [];
    this.size = 0;
    if (line.trim() === "") return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (error) {
      this.onerror?.(error as Error);
      void this.send({ jsonrpc: "2.0", id: null, error: { code: PARSE_ERROR, message: "message is not valid JSON-RPC" } } as unknown as JSONRPCMessage);
      return;
    }
    this.onmessage?.(message);
  }
}

const ID = String.raw`"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")`;

/** The request id from the first or last bytes of a discarded line, or null. */
function requestId(head: string, tail: string): string | number | null {
  const m = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?${ID}`).exec(head) ?? new RegExp(String.raw`"jsonrpc"\s*:\s*"2\.0"\s*,\s*${ID}\s*\}\s*$`).exec(tail);
  if (!m) return null;
  return m[1]!.startsWith('"') ? (JSON.parse(m[1]!) as string) : Number(m[1]);
}
