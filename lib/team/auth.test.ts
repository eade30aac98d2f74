/** Tests of a team server's request rules (issue 39). */
import { describe, expect, it } from "vitest";

import { isPublicRequest, requestPath, requestToken, roleRefusal } from "@/lib/team/auth";

describe("requestToken", () => {
  it("takes the bearer token first, else the login cookie, else none", () => {
    expect(requestToken("Bearer cft_abc", "casefile_token=cft_cookie")).toBe("cft_abc");
    expect(requestToken("bearer   cft_abc  ", undefined)).toBe("cft_abc");
    expect(requestToken(undefined, "a=1; casefile_token=cft_cookie; b=2")).toBe("cft_cookie");
    expect(requestToken("Basic dXNlcjpwdw==", "other=1")).toBeNull();
    expect(requestToken("Bearer two words", undefined)).toBeNull();
    expect(requestToken(undefined, "casefile_token=")).toBeNull();
  });
});

describe("roleRefusal", () => {
  const allowed = (role: "read" | "push" | "admin", method: string, target: string, action = false) => roleRefusal(role, method, requestPath(target), action) === null;

  it("read: reading anywhere and tool calls (checked again by tool), nothing else", () => {
    expect(allowed("read", "GET", "/projects/p/sessions/s")).toBe(true);
    expect(allowed("read", "HEAD", "/api/overview")).toBe(true);
    expect(allowed("read", "POST", "/api/tools/write_evidence")).toBe(true);
    expect(allowed("read", "POST", "/api/mcp")).toBe(true);
    expect(allowed("read", "POST", "/projects/p/synthesis", true)).toBe(true);
    expect(allowed("read", "POST", "/projects/p/synthesis")).toBe(false);
    expect(allowed("read", "POST", "/api/overview", true)).toBe(false);
    expect(allowed("read", "POST", "/api/team/push/manifest")).toBe(false);
    expect(allowed("read", "PUT", "/api/team/push/file?root_id=r")).toBe(false);
    expect(roleRefusal("read", "PUT", "/api/team/push/file", false)).toMatch(/a read token may not PUT \/api\/team\/push\/file: it may read/);
  });

  it("push: read's requests and the push protocol; admin: everything", () => {
    expect(allowed("push", "POST", "/api/team/push/manifest")).toBe(true);
    expect(allowed("push", "PUT", "/api/team/push/file?root_id=r&path=a&offset=0")).toBe(true);
    expect(allowed("push", "PUT", "/api/team/push/../admin/x")).toBe(false);
    expect(allowed("push", "DELETE", "/api/overview")).toBe(false);
    expect(allowed("admin", "DELETE", "/api/anything")).toBe(true);
  });
});

describe("isPublicRequest", () => {
  it("lets the login page and its assets through without a token, only to read", () => {
    expect(isPublicRequest("GET", "/login")).toBe(true);
    expect(isPublicRequest("GET", "/_next/static/chunks/a.js")).toBe(true);
    expect(isPublicRequest("POST", "/login")).toBe(false);
    expect(isPublicRequest("GET", "/api/overview")).toBe(false);
    expect(isPublicRequest("GET", requestPath("/_next/static/../../api/overview"))).toBe(false);
  });
});
