import { NextResponse, type NextRequest } from "next/server";

import { rejectNonLocalRequest } from "@/lib/security/local-request";

/** Refuses non-loopback Hosts (DNS rebinding) and cross-origin writes before any route runs. */
export function proxy(request: NextRequest) {
  const reason = rejectNonLocalRequest(request.method, request.headers.get("host"), request.headers.get("origin"));
  if (reason) return NextResponse.json({ error: { code: "invalid_input", message: reason } }, { status: 403 });
  return NextResponse.next();
}

export const config = { matcher: "/((?!_next/static|_next/image|favicon.ico).*)" };
