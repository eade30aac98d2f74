import { describe, expect, it } from "vitest";

import { localRequestDecisions, rejectNonLocalRequest } from "@/lib/security/local-request";

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
});
