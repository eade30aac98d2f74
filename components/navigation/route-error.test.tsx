// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { RouteError } from "./route-error";

afterEach(cleanup);

describe("RouteError (a route's error boundary)", () => {
  it("shows a client error's own message, with no digest", () => {
    render(<RouteError error={new Error("window is not defined")} retry={vi.fn()} />);
    expect(screen.getByRole("alert").textContent).toContain("window is not defined");
    expect(screen.queryByText(/digest/)).toBeNull();
  });

  it("for a server error says the server could not make the page and gives its digest, not React's generic text", () => {
    const error = Object.assign(new Error("Minified React error #441; visit https://react.dev/errors/441"), { digest: "804562484" });
    render(<RouteError error={error} retry={vi.fn()} />);
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toContain("The server could not make this page.");
    expect(alert.textContent).toContain("digest 804562484 — see the server log");
    expect(alert.textContent).not.toContain("Minified React error");
  });
});
