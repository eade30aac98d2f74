import { describe, expect, it } from "vitest";

import { loginUrl, safeReturnPath } from "./return-to";

describe("safeReturnPath (issue 39: the page to return to after signing in)", () => {
  it("keeps a path on this site, with its query", () => {
    for (const path of ["/", "/usage", "/projects/-home-a/sessions/S0001?turn=T0002", "/search?q=machine%3Abeta", "/projects/a%2F%2Fb"]) expect(safeReturnPath(path)).toBe(path);
  });

  it("refuses anything that could leave the site, the login pages and non-strings", () => {
    for (const value of ["//evil.example/x", "/\\evil.example", "\\\\evil.example", "https://evil.example/", "javascript:alert(1)", "evil.example/x", "", " /usage", "/\t/evil.example", "/a b", "/login", "/login?next=/x", "/logout", `/${"a".repeat(2048)}`, 42, null, undefined, ["/usage"]]) {
      expect(safeReturnPath(value), String(value)).toBeNull();
    }
  });
});

describe("loginUrl", () => {
  it("carries a safe path other than / in ?next, after the extra parameters", () => {
    expect(loginUrl("/projects/x?sort=risk")).toBe("/login?next=%2Fprojects%2Fx%3Fsort%3Drisk");
    expect(loginUrl("/usage", { failed: "1" })).toBe("/login?failed=1&next=%2Fusage");
  });

  it("drops / and anything unsafe", () => {
    expect(loginUrl("/")).toBe("/login");
    expect(loginUrl("//evil.example")).toBe("/login");
    expect(loginUrl(undefined, { failed: "1" })).toBe("/login?failed=1");
  });
});
