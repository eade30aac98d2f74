// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";

import { SignedIn } from "./signed-in";

afterEach(cleanup);

describe("SignedIn (issue 39)", () => {
  it("names the token's machine and role, with a script-free sign-out form", () => {
    render(<SignedIn machine="reviewer" role="read" logoutPath="/logout" />);
    expect(screen.getByLabelText("Signed in").textContent).toMatch(/^reviewer · read/);
    const form = screen.getByRole("button", { name: "Sign out" }).closest("form")!;
    expect([form.getAttribute("method"), form.getAttribute("action")]).toEqual(["post", "/logout"]);
  });
});
