import { NextResponse, type NextRequest } from "next/server";

import { resolveWorkspaceDir } from "@/lib/config";
import { createCoreContext } from "@/lib/context";
import { rejectNonLocalRequest } from "@/lib/security/local-request";
import { checkPageTarget } from "@/lib/workspace/page-target";

/**
 * Refuses non-loopback Hosts (DNS rebinding) and cross-origin writes before any route runs;
 * answers 400 for a malformed percent-encoding and 404 for a page of an unknown project or
 * session (a page's own notFound() would come after streaming began, with status 200).
 */
export async function proxy(request: NextRequest) {
  const reason = rejectNonLocalRequest(request.method, request.headers.get("host"), request.headers.get("origin"));
  if (reason) return NextResponse.json({ error: { code: "invalid_input", message: reason } }, { status: 403 });
  const target = await checkPageTarget(createCoreContext(resolveWorkspaceDir(undefined)), request.nextUrl.pathname);
  if (target.kind === "bad_encoding") {
    return NextResponse.json({ error: { code: "invalid_input", message: `malformed percent-encoding in the path segment '${target.segment}'` } }, { status: 400 });
  }
  if (target.kind === "not_found") return NextResponse.rewrite(new URL("/__casefile-not-found", request.url), { status: 404 });
  return NextResponse.next();
}

export const config = { matcher: "/((?!_next/static|_next/image|favicon.ico).*)" };
