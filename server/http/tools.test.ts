import { beforeAll, describe, expect, it } from "vitest";

import { getLedger } from "@/lib/ledger/ledger-store";
import { buildTestWorkspace, TEST_PROJECT_KEY, userLines } from "@/lib/testing/workspace-builder";
import { callToolHandler, HTTP_BODY_LIMIT_BYTES } from "@/server/http/tools";

let root = "";
beforeAll(async () => {
  root = await buildTestWorkspace([{ ref: "S0001", content: userLines(3) }]);
  process.env.CASEFILE_WORKSPACE = root;
});

const post = (body: string, headers: Record<string, string> = {}) =>
  callToolHandler(new Request("http://127.0.0.1:3000/api/tools/read_session_lines", { method: "POST", body, headers }), { params: Promise.resolve({ tool: "read_session_lines" }) });

describe("POST /api/tools/<name>", () => {
  it("answers 413 naming the limit for a body over it, not 'not valid JSON'", async () => {
    const response = await post(JSON.stringify({ project_key: "x".repeat(HTTP_BODY_LIMIT_BYTES) }));
    expect(response.status).toBe(413);
    expect((await response.json()).error.message).toContain(`${HTTP_BODY_LIMIT_BYTES} bytes`);
  });

  it("answers 413 for an over-limit chunked body (no Content-Length), however it is cut into chunks", async () => {
    for (const size of [11 * 1024 * 1024, 60 * 1024 * 1024]) {
      let sent = 0;
      const chunk = new Uint8Array(256 * 1024).fill(0x20);
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= size) return controller.close();
          sent += chunk.byteLength;
          controller.enqueue(chunk);
        },
      });
      const request = new Request("http://127.0.0.1:3000/api/tools/read_session_lines", { method: "POST", body, duplex: "half" } as RequestInit);
      expect(request.headers.get("content-length")).toBeNull();
      const response = await callToolHandler(request, { params: Promise.resolve({ tool: "read_session_lines" }) });
      expect(response.status).toBe(413);
      expect((await response.json()).error.message).toContain(`${HTTP_BODY_LIMIT_BYTES} bytes`);
      // The body is not read to its end once over the limit.
      expect(sent).toBeLessThan(HTTP_BODY_LIMIT_BYTES + 2 * chunk.byteLength);
    }
  });

  it("records the Host and Origin decisions with the call in the audit ledger", async () => {
    const response = await post(JSON.stringify({ project_key: TEST_PROJECT_KEY, session_ref: "S0001", start_line: 1, end_line: 1 }), { origin: "http://127.0.0.1:3000" });
    expect(response.status).toBe(200);
    const index = await getLedger(root).read();
    const finished = index.entries.map((e) => e.entry).find((e) => e.kind === "tool_call_finished");
    expect(finished).toMatchObject({ result: "success" });
    expect(finished!.kind === "tool_call_finished" && finished!.policy_decisions.slice(0, 2)).toEqual([
      { policy_id: "door.host", decision: "allow", reason: "Host 127.0.0.1:3000" },
      { policy_id: "door.origin", decision: "allow", reason: "same origin http://127.0.0.1:3000" },
    ]);
  });
});
