import path from "node:path";

import { NextResponse, type NextRequest } from "next/server";

import { resolveWorkspaceDir } from "@/lib/config";
import { createCoreContext } from "@/lib/context";
import { createNonce, pageContentSecurityPolicy, prerenderedScriptHashes } from "@/lib/security/content-security-policy";
import { localRequestDecisions, rejectNonLocalRequest } from "@/lib/security/local-request";
import { refusedRequestRecord } from "@/lib/security/request-limits";
import { checkPageTarget } from "@/lib/workspace/page-target";

/**
 * Refuses non-loopback Hosts (DNS rebinding) and cross-origin writes before any route runs;
 * answers 400 for a malformed percent-encoding and 404 for a page of an unknown project or
 * session (a page's own notFound() would come after streaming began, with status 200). Gives
 * each page its Content-Security-Policy with a fresh nonce; every other response keeps the strict
 * policy and headers of next.config.mjs.
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
  if (request.nextUrl.pathname.startsWith("/api/")) return NextResponse.next();
  // A nonce makes a page render per request, but every page here already does (each reads the
  // workspace per request), so it costs nothing, and unlike 'unsafe-inline' it lets no injected
  // inline script run. Next reads the nonce from the request's CSP header and puts it on each of
  // its inline scripts; the pages prerendered at build (the not-found page) are allowed by hash.
  const policy = pageContentSecurityPolicy({ nonce: createNonce(), scriptHashes: scriptHashes(), dev: process.env.NODE_ENV === "development" });
  const headers = new Headers(request.headers);
  headers.set("content-security-policy", policy);
  const response =
    target.kind === "not_found"
      ? NextResponse.rewrite(new URL("/__casefile-not-found", request.url), { status: 404, request: { headers } })
      : NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", policy);
  return response;
}

let prerendered: string[] | undefined;

/** The hashes of the prerendered pages' inline scripts, read once: a new build restarts the server. */
function scriptHashes(): string[] {
  prerendered ??= prerenderedScriptHashes(path.join(process.cwd(), ".next", "server", "app"));
  return prerendered;
}

/**
 * A refused `POST /api/tools/<name>` is a tool call denied by the door's Host/Origin rules: it
 * goes on the audit ledger as `denied` with those decisions (seed 002). Its input on record is
 * the fixed-size record of the refusal (method, path, reason, declared size), never the body,
 * which is not read (issue 35, item 3: refused bodies filled `audit/`). Other refused requests
 * are not tool calls.
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
  const input = refusedRequestRecord(request.method, request.nextUrl.pathname, reason, request.headers.get("content-length"));
  const decisions = localRequestDecisions(request.method, request.headers.get("host"), request.headers.get("origin"));
  // Loaded on this rare path only: the registry holds every tool (~200 modules), and the proxy
  // runs before a cold server's first page, whose first rows then waited for them (issue 13).
  const { recordRefusedCall } = await import("@/lib/tools/registry");
  await recordRefusedCall(createCoreContext(resolveWorkspaceDir(undefined)), name, input, { door: "http", decisions }, input.refused_request.reason);
}

export const config = { matcher: "/((?!_next/static|_next/image|favicon.ico).*)" };
