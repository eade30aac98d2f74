/** The three doors a tool is called through in tests (CLI through tsx, HTTP's handler, MCP in memory), bound to one workspace. */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";

import { createCoreContext } from "@/lib/context";
import { callToolHandler } from "@/server/http/tools";
import { createMcpServer } from "@/server/mcp/server";

const run = promisify(execFile);
const TSX = path.resolve("node_modules/tsx/dist/cli.mjs");
const CLI = path.resolve("server/cli/main.ts");

/** One tool call's answer through each door: the CLI's exit code, HTTP's status, MCP's isError, and the JSON text each returned. */
export type DoorAnswers = { cli: { code: number; text: string }; http: { status: number; text: string }; mcp: { isError: boolean; text: string } };

/** `casefile tool TOOL INPUT --workspace ROOT` through tsx: its exit code and the JSON it printed. */
export async function cliDoor(root: string, tool: string, input: object): Promise<{ code: number; text: string }> {
  try {
    const { stdout } = await run(process.execPath, [TSX, CLI, "tool", tool, JSON.stringify(input), "--workspace", root]);
    return { code: 0, text: stdout.trimEnd() };
  } catch (error) {
    const e = error as { code: number; stdout: string };
    return { code: e.code, text: e.stdout.trimEnd() };
  }
}

/** The doors by name, as {@link DoorAnswers} names them. */
export type DoorName = keyof DoorAnswers;

/**
 * The doors of the workspace at `root`: `call(tool, input)` asks all three at once, `one(door,
 * tool, input)` asks one of them (a write made once per door). HTTP's door reads
 * `$CASEFILE_WORKSPACE` once per process, so this sets it: one workspace per test file.
 */
export async function openDoors(root: string): Promise<{
  call: (tool: string, input: object) => Promise<DoorAnswers>;
  one: <D extends DoorName>(door: D, tool: string, input: object) => Promise<DoorAnswers[D]>;
}> {
  process.env.CASEFILE_WORKSPACE = root;
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(createCoreContext(root)).connect(serverSide);
  const mcp = new Client({ name: "doors-test", version: "1" });
  await mcp.connect(clientSide);
  const viaCli = (tool: string, input: object) => cliDoor(root, tool, input);
  const viaHttp = async (tool: string, input: object) => {
    const request = new Request(`http://127.0.0.1/api/tools/${tool}`, { method: "POST", body: JSON.stringify(input) });
    const response = await callToolHandler(request, { params: Promise.resolve({ tool }) });
    return { status: response.status, text: await response.text() };
  };
  const viaMcp = async (tool: string, input: object) => {
    const result = await mcp.callTool({ name: tool, arguments: input as Record<string, unknown> });
    return { isError: Boolean(result.isError), text: (result.content as { type: string; text: string }[])[0]!.text };
  };
  return {
    call: async (tool, input) => {
      const [cli, http, fromMcp] = await Promise.all([viaCli(tool, input), viaHttp(tool, input), viaMcp(tool, input)]);
      return { cli, http, mcp: fromMcp };
    },
    one: async (door, tool, input) => {
      const doors = { cli: viaCli, http: viaHttp, mcp: viaMcp };
      return (await doors[door](tool, input)) as DoorAnswers[typeof door];
    },
  };
}
