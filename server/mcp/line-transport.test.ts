import { PassThrough } from "node:stream";

import { describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { buildTestWorkspace, TEST_PROJECT_KEY, userLines } from "@/lib/testing/workspace-builder";
import { callTool } from "@/lib/tools/registry";
import { LineStdioTransport, TopLevelIdScanner } from "@/server/mcp/line-transport";
import { createMcpServer } from "@/server/mcp/server";

/*
 * The MCP door in-process over the real line transport (issue 26): wrong `arguments` answer the
 * same `invalid` as the other doors, and an oversized message's error carries its request id
 * wherever the id sits.
 */

type Reply = { id: unknown; result?: { content: { text: string }[]; isError?: boolean }; error?: { code: number; message: string } };

async function connect(maxBytes = 10 * 1024 * 1024) {
  const root = await buildTestWorkspace([{ ref: "S0001", content: userLines(3) }]);
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const replies: Reply[] = [];
  let buffered = "";
  stdout.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    for (let nl = buffered.indexOf("\n"); nl !== -1; nl = buffered.indexOf("\n")) {
      replies.push(JSON.parse(buffered.slice(0, nl)) as Reply);
      buffered = buffered.slice(nl + 1);
    }
  });
  const server = createMcpServer(createCoreContext(root));
  await server.connect(new LineStdioTransport(stdin, stdout, maxBytes));
  const send = (line: string) => stdin.write(`${line}\n`);
  const reply = async (id: unknown): Promise<Reply> => {
    for (let i = 0; i < 2000; i++) {
      const found = replies.find((r) => r.id === id);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error(`no reply for id ${String(id)}`);
  };
  send(JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } }));
  await reply(0);
  send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  return { root, send, reply, close: () => server.close() };
}

describe("casefile mcp: wrong arguments and oversized messages", () => {
  it("answers arguments [], \"x\", null, 7 with the same invalid result as the CLI door, never a protocol error", async () => {
    const mcp = await connect();
    try {
      const ctx = createCoreContext(mcp.root);
      let id = 1;
      for (const args of [[], "x", null, 7, true]) {
        mcp.send(JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "read_session_lines", arguments: args } }));
        const reply = await mcp.reply(id);
        expect(reply.error, JSON.stringify(args)).toBeUndefined();
        expect(reply.result!.isError).toBe(true);
        const body = JSON.parse(reply.result!.content[0]!.text) as { status: string };
        expect(body).toEqual(await callTool(ctx, "read_session_lines", args, { door: "cli" }));
        expect(body.status).toBe("invalid");
        id += 1;
      }
      // An object is passed on as it was.
      mcp.send(JSON.stringify({ jsonrpc: "2.0", id: 99, method: "tools/call", params: { name: "read_session_lines", arguments: { project_key: TEST_PROJECT_KEY, session_ref: "S0001", start_line: 1, end_line: 1 } } }));
      expect(JSON.parse((await mcp.reply(99)).result!.content[0]!.text)).toMatchObject({ status: "ok" });
    } finally {
      await mcp.close();
    }
  });

  it("answers a message over the limit with a JSON-RPC error carrying its id wherever the id sits, and keeps serving", async () => {
    const mcp = await connect(4096);
    try {
      const payload = "y".repeat(10_000);
      const shapes = [
        { id: 11, line: `{"method":"tools/call","params":{"name":"read_session_lines","arguments":{"project_key":"${payload}"}},"id":11,"jsonrpc":"2.0"}` },
        { id: "req-12", line: `{"jsonrpc":"2.0","method":"tools/call","params":{"arguments":{"x":"${payload}","id":5}},"id":"req-12"}` },
        { id: 13, line: `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"x","arguments":{"s":"\\"id\\":1 ${payload}"}}, "id" : 13 }` },
        { id: 14, line: `{"id":14,"jsonrpc":"2.0","method":"tools/call","params":{"arguments":{"p":"${payload}"}}}` },
      ];
      for (const { id, line } of shapes) {
        mcp.send(line);
        expect(await mcp.reply(id)).toMatchObject({ id, error: { code: -32600, message: expect.stringContaining("exceeds") } });
      }
      mcp.send(JSON.stringify({ jsonrpc: "2.0", id: 20, method: "tools/list" }));
      expect((await mcp.reply(20)).result).toBeDefined();
    } finally {
      await mcp.close();
    }
  });

  it("finds the top-level id across pieces, ignoring ids nested or inside strings", () => {
    const text = '{"params":{"id":1,"s":"\\"id\\":2"},"x":"a\\\\","id":"the-one","z":[{"id":3}]}';
    for (const cut of [1, 7, 20, text.length - 5]) {
      const scanner = new TopLevelIdScanner();
      scanner.feed(Buffer.from(text.slice(0, cut)));
      scanner.feed(Buffer.from(text.slice(cut)));
      expect(scanner.id).toBe("the-one");
    }
    const none = new TopLevelIdScanner();
    none.feed(Buffer.from('{"params":{"id":1}}'));
    expect(none.id).toBeUndefined();
  });
});
