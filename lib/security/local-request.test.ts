/** Tests of the local-only request rules (Host and Origin). */
import { describe, expect, it } from "vitest";

import { hostProblem, localRequestDecisions, rejectNonLocalRequest, serverPort } from "@/lib/security/local-request";

describe("rejectNonLocalRequest", () => {
  it("refuses a POST with Origin: null (sandboxed iframe, data: page) like any foreign origin", () => {
    expect(rejectNonLocalRequest("POST", "127.0.0.1:3000", "null")).toMatch(/opaque origin/);
    expect(rejectNonLocalRequest("POST", "127.0.0.1:3000", "http://evil.example")).toMatch(/cross-origin/);
  });

  it("allows same-origin writes, writes without Origin (CLI clients), and reads from anywhere local", () => {
    expect(rejectNonLocalRequest("POST", "127.0.0.1:3000", "http://127.0.0.1:3000")).toBeNull();
    expect(rejectNonLocalRequest("POST", "localhost:3000", null)).toBeNull();
    expect(rejectNonLocalRequest("GET", "localhost:3000", "null")).toBeNull();
  });

  it("refuses a non-loopback Host (DNS rebinding)", () => {
    expect(rejectNonLocalRequest("GET", "attacker.example", null)).toMatch(/not a loopback name/);
  });

  it("reports both rules with their decisions for the audit ledger", () => {
    expect(localRequestDecisions("POST", "127.0.0.1:3000", "null").map((d) => `${d.rule}:${d.decision}`)).toEqual(["door.host:allow", "door.origin:deny"]);
  });

  it("parses the Host strictly: exact loopback names and the server's port, nothing after them (issue 26 probe)", () => {
    for (const ok of ["127.0.0.1:3918", "localhost:3918", "[::1]:3918", "LOCALHOST:3918"]) expect(hostProblem(ok, 3918), ok).toBeNull();
    for (const bad of ["127.0.0.1:3918.evil.com", "[::1]evil.com", "localhost:3918@evil.com", "localhost:3918/x", "localhost:3918?a", "evil.com", "127.0.0.2:3918", "app.localhost:3918", "localhost.:3918", "127.1:3918", "localhost:3919", "localhost", "", "[::1", "localhost:3918 extra"]) {
      expect(hostProblem(bad, 3918), bad).not.toBeNull();
    }
    expect(rejectNonLocalRequest("POST", "127.0.0.1:3918.evil.com", null, 3918)).toMatch(/not a host name/);
    expect(rejectNonLocalRequest("POST", "localhost:3918@evil.com", null, 3918)).toMatch(/not a loopback name/);
    expect(rejectNonLocalRequest("GET", "localhost:4000", null, 3918)).toMatch(/port 4000, not this server's 3918/);
    // Without a known port any port passes; port 80 may be left out of the Host.
    expect(hostProblem("localhost:4000", null)).toBeNull();
    expect(hostProblem("localhost", 80)).toBeNull();
    expect(serverPort({ CASEFILE_PORT: "3918", PORT: "3000" })).toBe(3918);
    expect(serverPort({ PORT: "3000" })).toBe(3000);
    expect(serverPort({})).toBeNull();
  });
});
