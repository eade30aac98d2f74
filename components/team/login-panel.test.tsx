// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";

import { LoginPanel } from "./login-panel";

afterEach(cleanup);

describe("LoginPanel (issue 39)", () => {
  it("on a team server: a script-free form posting the token field to the login path, and a sign-out form", () => {
    render(<LoginPanel team failed={false} loginPath="/login" logoutPath="/logout" />);
    const input = screen.getByLabelText(/Access token/);
    expect(input.getAttribute("name")).toBe("token");
    expect(input.getAttribute("type")).toBe("password");
    const form = input.closest("form")!;
    expect([form.getAttribute("method"), form.getAttribute("action")]).toEqual(["post", "/login"]);
    expect(screen.getByRole("button", { name: "Sign out" }).closest("form")!.getAttribute("action")).toBe("/logout");
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("says when the last token was refused", () => {
    render(<LoginPanel team failed loginPath="/login" logoutPath="/logout" />);
    expect(screen.getByRole("alert").textContent).toMatch(/not valid: unknown or revoked/);
  });

  it("on a local dashboard: no form, nothing to sign in to", () => {
    render(<LoginPanel team={false} failed={false} loginPath="/login" logoutPath="/logout" />);
    expect(screen.queryByRole("textbox")).toBeNull();
    expect(screen.queryByLabelText(/Access token/)).toBeNull();
    expect(screen.getByText(/nothing to sign in to/)).toBeTruthy();
  });
});
