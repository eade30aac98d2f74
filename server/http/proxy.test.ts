import fs from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";

import { auditDir } from "@/lib/fs/workspace-layout";
import { inspectAudit } from "@/lib/ledger/query";
import { getLedger } from "@/lib/ledger/ledger-store";
import { SECURITY_HEADERS, STRICT_CONTENT_SECURITY_POLICY } from "@/lib/security/content-security-policy";
import { buildTestWorkspace, userLines } from "@/lib/testing/workspace-builder";
import { proxy } from "@/proxy";

/* proxy.ts (Next's middleware): what a refused tool POST leaves on disk, and the headers it gives pages. */

let root = "";
beforeAll(async () => {
  root = await buildTestWorkspace([{ ref: "S0001", content: userLines(3) }]);
  process.env.CASEFILE_WORKSPACE = root;
});

/** The bytes under `dir`, all files counted. */
async function folderBytes(dir: string): Promise<number> {
  const files = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const sizes = await Promise.all(files.filter((f) => f.isFile()).map((f) => fs.stat(path.join(f.parentPath, f.name)).then((s) => s.size)));
  return sizes.reduce((a, b) => a + b, 0);
}

describe("a tool POST refused at the door (issue 35, item 3)", () => {
  it("a chunked 30 MiB JSON body from a foreign Origin is not read and not stored: the ledger keeps a fixed-size record of the refusal", async () => {
    const size = 30 * 1024 * 1024;
    let pulled = 0;
    const head = new TextEncoder().encode('{"project_key":"');
    const filler = new Uint8Array(256 * 1024).fill(0x78);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled === 0) {
          pulled += head.byteLength;
          return controller.enqueue(head);
        }
        if (pulled >= size) {
          pulled += 2;
          controller.enqueue(new TextEncoder().encode('"}'));
          return controller.close();
        }
        pulled += filler.byteLength;
        controller.enqueue(filler);
      },
    });
    const before = await folderBytes(auditDir(root));
    const request = new NextRequest("http://127.0.0.1:3000/api/tools/read_session_lines", {
      method: "POST",
      body,
      duplex: "half",
      headers: { host: "127.0.0.1:3000", origin: "https://evil.example", "content-type": "application/json" },
    } as ConstructorParameters<typeof NextRequest>[1]);
    const response = await proxy(request);
    expect(response.status).toBe(403);
    // At most what the stream buffers ahead on its own: the body is never read.
    expect(pulled).toBeLessThan(1024 * 1024);
    expect((await folderBytes(auditDir(root))) - before).toBeLessThan(16 * 1024);

    const index = await getLedger(root).read();
    const started = index.entries.map((e) => e.entry).find((e) => e.kind === "tool_call_started" && e.tool_name === "read_session_lines")!;
    const [call] = await inspectAudit(getLedger(root), { receipt_id: started.receipt_id });
    expect(call!.finished).toMatchObject({ result: "denied" });
    expect(call!.input.value).toEqual({
      refused_request: { method: "POST", path: "/api/tools/read_session_lines", reason: "cross-origin POST from 'https://evil.example' refused", content_length: null },
    });
  });

  it("a declared size is on record, a huge foreign Host is quoted cut short, and the body is still not read", async () => {
    const host = `${"a".repeat(8000)}.evil.example`;
    const request = new NextRequest("http://127.0.0.1:3000/api/tools/list_projects", {
      method: "POST",
      body: JSON.stringify({ filler: "y".repeat(100_000) }),
      headers: { host, "content-length": "100014" },
    });
    expect((await proxy(request)).status).toBe(403);
    const index = await getLedger(root).read();
    const started = index.entries.map((e) => e.entry).filter((e) => e.kind === "tool_call_started" && e.tool_name === "list_projects").at(-1)!;
    const [call] = await inspectAudit(getLedger(root), { receipt_id: started.receipt_id });
    const record = (call!.input.value as { refused_request: { reason: string; content_length: number | null } }).refused_request;
    expect(record.content_length).toBe(100_014);
    expect(record.reason.length).toBeLessThanOrEqual(256);
    expect(JSON.stringify(call!.finished).length).toBeLessThan(2048);
  });
});

describe("security headers (issue 35, item 5)", () => {
  const page = (pathname: string) => proxy(new NextRequest(`http://127.0.0.1:3000${pathname}`, { headers: { host: "127.0.0.1:3000" } }));

  it("a page gets a Content-Security-Policy with a fresh nonce, given to Next on the request too: no inline script without it, no framing", async () => {
    const [first, second] = [await page("/"), await page("/usage")];
    const policy = first.headers.get("content-security-policy")!;
    const script = /script-src ([^;]*)/.exec(policy)![1]!;
    expect(script).toMatch(/^'self' 'nonce-[A-Za-z0-9+/]{22}=='/);
    expect(script).not.toContain("unsafe-inline");
    expect(script).not.toContain("unsafe-eval");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("object-src 'none'");
    expect(second.headers.get("content-security-policy")).not.toBe(policy);
    // NextResponse.next({ request: { headers } }): Next renders the page with this request header and reads the nonce from it.
    expect(first.headers.get("x-middleware-request-content-security-policy")).toBe(policy);
  });

  it("an unknown project's page (rewritten to the 404 page) gets the page policy too; /api/* keeps next.config's strict one", async () => {
    const missing = await page("/projects/no-such-project-000000000000");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-security-policy")).toMatch(/'nonce-/);
    expect((await page("/api/overview")).headers.get("content-security-policy")).toBeNull();
  });

  it("the browser never probes eval, which the policy refuses: instrumentation-client makes zod jitless before the pages hydrate", async () => {
    const { config } = await import("zod/v4/core");
    expect(config().jitless).toBeFalsy();
    await import("@/instrumentation-client");
    // zod's eval probe (util.allowsEval) returns false without probing under jitless.
    expect(config().jitless).toBe(true);
  });

  it("next.config.mjs gives every path (pages, /api/*, /_next/static) the headers and the strict policy of lib/security", async () => {
    const config = (await import(pathToFileURL(path.resolve("next.config.mjs")).href)) as { default: { headers: () => Promise<{ source: string; headers: { key: string; value: string }[] }[]> } };
    const rules = await config.default.headers();
    expect(rules).toHaveLength(1);
    expect(rules[0]!.source).toBe("/:path*");
    expect(Object.fromEntries(rules[0]!.headers.map((h) => [h.key, h.value]))).toEqual({ ...SECURITY_HEADERS, "content-security-policy": STRICT_CONTENT_SECURITY_POLICY });
  });
});
