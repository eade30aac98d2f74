// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";

import { LoginPanel } from "./login-panel";

afterEach(cleanup);

const paths = { loginPath: "/login", logoutPath: "/logout", returnField: "next" };

describe("LoginPanel (issue 39)", () => {
  it("on a team server: a script-free form posting the token field to the login path; no Sign out for a visitor not signed in", () => {
    render(<LoginPanel team failed={false} returnTo={null} signedIn={null} {...paths} />);
    const input = screen.getByLabelText(/Access token/);
    expect(input.getAttribute("name")).toBe("token");
    expect(input.getAttribute("type")).toBe("password");
    const form = input.closest("form")!;
    expect([form.getAttribute("method"), form.getAttribute("action")]).toEqual(["post", "/login"]);
    expect(form.querySelector('input[name="next"]')).toBeNull();
    expect(screen.queryByRole("button", { name: "Sign out" })).toBeNull();
    expect(screen.queryByLabelText("Signed in")).toBeNull();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("posts the page to return to with the token", () => {
    render(<LoginPanel team failed={false} returnTo="/projects/p?sort=risk" signedIn={null} {...paths} />);
    const next = screen.getByLabelText(/Access token/).closest("form")!.querySelector<HTMLInputElement>('input[name="next"]')!;
    expect([next.type, next.value]).toEqual(["hidden", "/projects/p?sort=risk"]);
  });

  it("to a browser signed in: who it is, the way back, and a sign-out form", () => {
    render(<LoginPanel team failed={false} returnTo="/usage" signedIn={{ machine: "reviewer", role: "read" }} {...paths} />);
    const box = screen.getByLabelText("Signed in");
    expect(box.textContent).toMatch(/Signed in as reviewer · read\./);
    expect(screen.getByRole("link", { name: "Go to the dashboard" }).getAttribute("href")).toBe("/usage");
    const signOut = screen.getByRole("button", { name: "Sign out" }).closest("form")!;
    expect([signOut.getAttribute("method"), signOut.getAttribute("action")]).toEqual(["post", "/logout"]);
    expect(screen.getByRole("button", { name: "Sign in with another token" })).toBeTruthy();
  });

  it("says when the last token was refused", () => {
    render(<LoginPanel team failed returnTo={null} signedIn={null} {...paths} />);
    expect(screen.getByRole("alert").textContent).toMatch(/not valid: unknown or revoked/);
  });

  it("on a local dashboard: no form, nothing to sign in to", () => {
    render(<LoginPanel team={false} failed={false} returnTo={null} signedIn={null} {...paths} />);
    expect(screen.queryByRole("textbox")).toBeNull();
    expect(screen.queryByLabelText(/Access token/)).toBeNull();
    expect(screen.getByText(/nothing to sign in to/)).toBeTruthy();
  });
});
