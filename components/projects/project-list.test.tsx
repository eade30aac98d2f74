// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import type { WorkspaceOverview } from "@/lib/overview/schema";

import { ProjectList } from "./project-list";
import { projectRow } from "./__fixtures__/project-rows";

vi.mock("next/navigation", () => ({
  useRouter: () => ({ push: vi.fn(), replace: vi.fn(), prefetch: vi.fn() }),
  useSearchParams: () => new URLSearchParams(window.location.search),
  usePathname: () => window.location.pathname,
}));

const OVERVIEW: WorkspaceOverview = {
  version: "v1",
  projects: [
    projectRow("p-web", { project_label: "web-app", cwd: "/home/ana/web-app", session_count: 3, last_activity_at: "2026-05-12T09:00:00Z" }),
    projectRow("p-api", { project_label: "api-server", cwd: "/home/ana/api-server", session_count: 40, last_activity_at: "2026-05-10T09:00:00Z" }),
    projectRow("p-cli", { project_label: "cli", cwd: "/srv/tools/cli", session_count: 12, last_activity_at: "2026-05-01T09:00:00Z" }),
  ],
};

beforeEach(() => window.history.replaceState(null, "", "/"));
afterEach(cleanup);

function renderList() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  const node = () => (
    <QueryClientProvider client={client}>
      <ProjectList initial={OVERVIEW} />
    </QueryClientProvider>
  );
  const view = render(node());
  return { rerender: () => view.rerender(node()) };
}

const shownLabels = () =>
  within(screen.getByRole("table", { name: "Projects" }))
    .getAllByRole("row")
    .slice(1)
    .map((row) => within(row).getAllByRole("link")[0]!.textContent);
const header = (name: string) => screen.getAllByRole("columnheader").find((h) => h.textContent?.startsWith(name))!;

describe("the home page's project list (issue 36)", () => {
  it("sorts by a column header, into the URL, and says how it is sorted", () => {
    const { rerender } = renderList();
    expect(shownLabels()).toEqual(["web-app", "api-server", "cli"]);
    expect(header("Last activity").getAttribute("aria-sort")).toBe("descending");
    fireEvent.click(within(header("Sessions")).getByRole("button"));
    expect(new URLSearchParams(window.location.search).toString()).toBe("sort=sessions&order=desc");
    rerender();
    expect(shownLabels()).toEqual(["api-server", "cli", "web-app"]);
    expect(header("Sessions").getAttribute("aria-sort")).toBe("descending");
    expect(header("Last activity").getAttribute("aria-sort")).toBe("none");
    fireEvent.click(within(header("Project")).getByRole("button"));
    rerender();
    expect(shownLabels()).toEqual(["api-server", "cli", "web-app"]);
    expect(header("Project").getAttribute("aria-sort")).toBe("ascending");
    expect(header("Evidence").getAttribute("aria-sort")).toBe("none");
  });

  it("filters by name or path from the URL's ?q, and the filter box writes it", () => {
    window.history.replaceState(null, "", "/?q=%2Fhome%2Fana");
    const { rerender } = renderList();
    expect(shownLabels()).toEqual(["web-app", "api-server"]);
    expect(screen.getByTestId("project-count").textContent).toBe("2 of 3 projects");
    const box = screen.getByLabelText("Filter projects") as HTMLInputElement;
    expect(box.value).toBe("/home/ana");
    fireEvent.change(box, { target: { value: "zzz" } });
    fireEvent.keyDown(box, { key: "Enter" });
    expect(new URLSearchParams(window.location.search).get("q")).toBe("zzz");
    rerender();
    expect(screen.getByText(/No project matches “zzz”/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Clear the filter" }));
    rerender();
    expect(shownLabels()).toEqual(["web-app", "api-server", "cli"]);
    expect(screen.getByTestId("project-count").textContent).toBe("3 projects");
  });
});

describe("ProjectList with no projects", () => {
  const renderEmpty = (teamServer: boolean) => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
    render(
      <QueryClientProvider client={client}>
        <ProjectList initial={{ version: "v1", projects: [] }} teamServer={teamServer} />
      </QueryClientProvider>,
    );
  };

  it("says how a local workspace gets projects: casefile prepare", () => {
    renderEmpty(false);
    expect(document.body.textContent).toContain("This workspace has no projects yet. Prepare it with casefile prepare.");
    expect(screen.queryByRole("table")).toBeNull();
  });

  it("on a team server, says no machine has pushed yet and how one does", () => {
    renderEmpty(true);
    expect(document.body.textContent).toContain("No machine has pushed sessions to this team server yet.");
    expect(document.body.textContent).toContain("casefile push --server URL --token TOKEN");
    expect(document.body.textContent).toContain("casefile token create --machine NAME --role push");
    expect(document.body.textContent).not.toContain("casefile prepare");
  });
});
