import process from "node:process";
import type { Readable, Writable } from "node:stream";

import { deserializeMessage, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** The largest MCP message (one JSON-RPC line) the stdio server accepts: 10 MiB. */
export const MAX_MCP_MESSAGE_BYTES = 10 * 1024 * 1024;

/**
 * The member a `tools/call` request's non-object `arguments` (`[]`, `"x"`, `null`, a number) is
 * wrapped in before the SDK sees it: the SDK's request schema rejects them with a raw zod dump
 * (-32603), while the registry answers every other door's wrong input with `invalid` (issue 26).
 * The tool handler unwraps it ({@link unwrapArguments}) and passes the value on as it came.
 */
export const RAW_ARGUMENTS_KEY = "__casefile_raw_arguments";

/** The input a tool handler was given, with non-object `arguments` unwrapped (see {@link RAW_ARGUMENTS_KEY}). */
export function unwrapArguments(input: unknown): unknown {
  if (input && typeof input === "object" && !Array.isArray(input) && RAW_ARGUMENTS_KEY in input) return (input as Record<string, unknown>)[RAW_ARGUMENTS_KEY];
  return input;
}

/** Wraps a `tools/call` request's `arguments` that are present but not an object (the SDK would refuse them). */
function wrapArguments(message: JSONRPCMessage): JSONRPCMessage {
  const m = message as { method?: unknown; params?: unknown };
  if (m.method !== "tools/call" || !m.params || typeof m.params !== "object" || Array.isArray(m.params)) return message;
  const params = m.params as Record<string, unknown>;
  if (!("arguments" in params)) return message;
  const args = params.arguments;
  if (args !== null && typeof args === "object" && !Array.isArray(args)) return message;
  return { ...message, params: { ...params, arguments: { [RAW_ARGUMENTS_KEY]: args } } } as JSONRPCMessage;
}

/** JSON-RPC "Invalid Request". */
const INVALID_REQUEST = -32600;
const PARSE_ERROR = -32700;
const EDGE = 256;

/**
 * The stdio transport of `casefile mcp`: newline-delimited JSON-RPC like the SDK's, but a message
 * over {@link MAX_MCP_MESSAGE_BYTES} is discarded as it streams in (never buffered whole) and
 * answered with a JSON-RPC error naming the limit, and the session keeps serving. The SDK's
 * transport closed the session silently at 10.1 MB and hung at 10.0 MB (issue 8 probe). The
 * error carries the request's id wherever it sits in the line (a streaming scan of the discarded
 * bytes finds the top-level `"id"` member, issue 26), so the client's pending call fails at once.
 */
export class LineStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private chunks: Buffer[] = [];
  private size = 0;
  private oversize: { bytes: number; head: string; tail: Buffer; ids: TopLevelIdScanner } | null = null;
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
      this.oversize.ids.feed(part);
      this.oversize.tail = Buffer.concat([this.oversize.tail, part]).subarray(-EDGE);
      return;
    }
    this.chunks.push(part);
    this.size += part.length;
    if (this.size > this.maxBytes) {
      const all = Buffer.concat(this.chunks);
      const ids = new TopLevelIdScanner();
      ids.feed(all);
      this.oversize = { bytes: all.length, head: all.subarray(0, EDGE).toString("utf8"), tail: Buffer.from(all.subarray(-EDGE)), ids };
      this.chunks = [];
      this.size = 0;
    }
  }

  private endLine(): void {
    if (this.oversize) {
      const { bytes, head, tail, ids } = this.oversize;
      this.oversize = null;
      const limitMb = (this.maxBytes / 1024 / 1024).toFixed(0);
      void this.send({
        jsonrpc: "2.0",
        id: ids.id !== undefined ? ids.id : requestId(head, tail.toString("utf8")),
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
    this.onmessage?.(wrapArguments(message));
  }
}

const ID = String.raw`"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")`;

/** The request id from the first or last bytes of a discarded line, or null. */
function requestId(head: string, tail: string): string | number | null {
  const m = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?${ID}`).exec(head) ?? new RegExp(String.raw`"jsonrpc"\s*:\s*"2\.0"\s*,\s*${ID}\s*\}\s*$`).exec(tail);
  if (!m) return null;
  return m[1]!.startsWith('"') ? (JSON.parse(m[1]!) as string) : Number(m[1]);
}

/**
 * Finds the top-level `"id"` member of one JSON object streamed through {@link feed} in pieces,
 * without keeping it: a byte-level scan of strings, escapes and nesting depth. `id` is the
 * member's value (number, string or null), undefined until seen.
 */
export class TopLevelIdScanner {
  id: string | number | null | undefined = undefined;
  private depth = 0;
  private inString = false;
  private escape = false;
  private expectKey = false;
  private key: number[] | null = null;
  private lastKey: string | null = null;
  private capture: number[] | null = null;

  /** Scans the next bytes of the object. */
  feed(bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]!;
      if (this.inString) {
        if (this.escape) this.escape = false;
        else if (b === 0x5c) this.escape = true;
        else if (b === 0x22) {
          this.inString = false;
          if (this.key) {
            this.lastKey = Buffer.from(this.key).toString("utf8");
            this.key = null;
            continue;
          }
        }
        if (this.key && this.key.length < 64) this.key.push(b);
        if (this.capture && this.capture.length < 512) this.capture.push(b);
        continue;
      }
      if (b === 0x22) {
        this.inString = true;
        if (this.depth === 1 && this.expectKey) {
          this.key = [];
          this.expectKey = false;
        } else if (this.capture) this.capture.push(b);
      } else if (b === 0x7b || b === 0x5b) {
        this.depth += 1;
        if (this.depth === 1) this.expectKey = b === 0x7b;
        else if (this.capture) this.capture = null; // an object or array id: not a valid one
      } else if (b === 0x7d || b === 0x5d) {
        if (this.depth === 1) this.finish();
        this.depth -= 1;
      } else if (b === 0x3a && this.depth === 1) {
        if (this.lastKey === "id" && this.id === undefined) this.capture = [];
        this.lastKey = null;
      } else if (b === 0x2c && this.depth === 1) {
        this.finish();
        this.expectKey = true;
      } else if (this.capture && this.capture.length < 512) this.capture.push(b);
    }
  }

  private finish(): void {
    if (!this.capture) return;
    const text = Buffer.from(this.capture).toString("utf8").trim();
    this.capture = null;
    try {
      const value: unknown = JSON.parse(text);
      this.id = typeof value === "string" || typeof value === "number" ? value : null;
    } catch {
      this.id = null;
    }
  }
}
