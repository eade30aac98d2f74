import { describe, expect, it } from "vitest";

import type { ProjectOverview } from "@/lib/overview/schema";

import { projectRow } from "./__fixtures__/project-rows";
import { DEFAULT_PROJECT_LIST_PARAMS, parseProjectListParams, visibleProjects } from "./project-list-params";

const PROJECTS = [
  projectRow("p-api", { project_label: "api-server", cwd: "/home/ana/work/api-server", session_count: 40, last_activity_at: "2026-05-10T09:00:00Z", turns_with_chain: 5 }),
  projectRow("p-web", { project_label: "Web", cwd: "/home/ana/work/web-app", session_count: 3, last_activity_at: "2026-05-12T09:00:00Z", turns_with_chain: 10 }),
  projectRow("p-cli", { project_label: "cli", cwd: "/srv/tools/cli", session_count: 12, last_activity_at: null, turn_count: 0 }),
];
const keys = (projects: readonly ProjectOverview[]) => projects.map((p) => p.project_key);

describe("the home page's project list state (issue 36)", () => {
  it("reads ?q&sort&order leniently: unknown values fall back, a column's own first order when none is given", () => {
    expect(parseProjectListParams(new URLSearchParams(""))).toEqual(DEFAULT_PROJECT_LIST_PARAMS);
    expect(parseProjectListParams(new URLSearchParams("sort=bogus&order=up&q=%20web%20"))).toEqual({ q: "web", sort: "activity", order: "desc" });
    expect(parseProjectListParams(new URLSearchParams("sort=name"))).toEqual({ q: "", sort: "name", order: "asc" });
  });

  it("filters by label or path, every word, ignoring case", () => {
    expect(keys(visibleProjects(PROJECTS, { ...DEFAULT_PROJECT_LIST_PARAMS, q: "WEB" }))).toEqual(["p-web"]);
    expect(keys(visibleProjects(PROJECTS, { ...DEFAULT_PROJECT_LIST_PARAMS, q: "ana work" }))).toEqual(["p-web", "p-api"]);
    expect(keys(visibleProjects(PROJECTS, { ...DEFAULT_PROJECT_LIST_PARAMS, q: "/srv/" }))).toEqual(["p-cli"]);
    expect(keys(visibleProjects(PROJECTS, { ...DEFAULT_PROJECT_LIST_PARAMS, q: "nothing" }))).toEqual([]);
  });

  it("sorts by name, sessions, last activity and coverage, unknown values last either way", () => {
    const sorted = (sort: "name" | "sessions" | "activity" | "coverage", order: "asc" | "desc") => keys(visibleProjects(PROJECTS, { q: "", sort, order }));
    expect(sorted("name", "asc")).toEqual(["p-api", "p-cli", "p-web"]);
    expect(sorted("name", "desc")).toEqual(["p-web", "p-cli", "p-api"]);
    expect(sorted("sessions", "desc")).toEqual(["p-api", "p-cli", "p-web"]);
    expect(sorted("activity", "desc")).toEqual(["p-web", "p-api", "p-cli"]);
    expect(sorted("activity", "asc")).toEqual(["p-api", "p-web", "p-cli"]);
    expect(sorted("coverage", "desc")).toEqual(["p-web", "p-api", "p-cli"]);
    expect(sorted("coverage", "asc")).toEqual(["p-api", "p-web", "p-cli"]);
  });
});
