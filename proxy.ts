import { NextResponse, type NextRequest } from "next/server";

import { resolveWorkspaceDir } from "@/lib/config";
import { createCoreContext } from "@/lib/context";
import { localRequestDecisions, rejectNonLocalRequest } from "@/lib/security/local-request";
import { checkPageTarget } from "@/lib/workspace/page-target";

/**
 * Refuses non-loopback Hosts (DNS rebinding) and cross-origin writes before any route runs;
 * answers 400 for a malformed percent-encoding and 404 for a page of an unknown project or
 * session (a page's own notFound() would come after streaming began, with status 200).
 */
export async function proxy(request: NextRequest) {
  const reason = rejectNonLocalRequest(request.method, request.headers.get("host"), request.headers.get("origin"));
  if (reason) {
    await recordRefusedToolPost(request, reason);
    return NextResponse.json({ error: { code: "invalid_input", message: reason } }, { status: 403 });
  }
  const target = await checkPageTarget(createCoreContext(resolveWorkspaceDir(undefined)), request.nextUrl.pathname);
  if (target.kind === "bad_encoding") {
    return NextResponse.json({ error: { code: "invalid_input", message: `malformed percent-encoding in the path segment '${target.segment}'` } }, { status: 400 });
  }
  if (target.kind === "not_found") return NextResponse.rewrite(new URL("/__casefile-not-found", request.url), { status: 404 });
  return NextResponse.next();
}

/** The largest refused body kept as the call's input on the record (the tool door's own limit). */
const REFUSED_BODY_LIMIT = 10 * 1024 * 1024;

/**
 * A refused `POST /api/tools/<name>` is a tool call denied by the door's Host/Origin rules: it
 * goes on the audit ledger as `denied` with those decisions (seed 002), its body as the input
 * when it is JSON within the limit (else null). Other refused requests are not tool calls.
 */
async function recordRefusedToolPost(request: NextRequest, reason: string): Promise<void> {
  const tool = /^\/api\/tools\/([^/]+)$/.exec(request.nextUrl.pathname)?.[1];
  if (request.method !== "POST" || tool === undefined) return;
  let name: string;
  try {
    name = decodeURIComponent(tool);
  } catch {
    return;
  }
  let input: unknown = null;
  if (Number(request.headers.get("content-length") ?? 0) < REFUSED_BODY_LIMIT) {
    try {
      input = JSON.parse(await request.text());
    } catch {
      /* not JSON: the refusal is recorded without an input */
    }
  }
  const decisions = localRequestDecisions(request.method, request.headers.get("host"), request.headers.get("origin"));
  // Loaded on this rare path only: the registry holds every tool (~200 modules), and the proxy
  // runs before a cold server's first page, whose first rows then waited for them (issue 13).
  const { recordRefusedCall } = await import("@/lib/tools/registry");
  await recordRefusedCall(createCoreContext(resolveWorkspaceDir(undefined)), name, input, { door: "http", decisions }, reason);
}

export const config = { matcher: "/((?!_next/static|_next/image|favicon.ico).*)" };
