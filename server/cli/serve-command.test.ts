import { describe, expect, it } from "vitest";

import { dashboardServerEnv, MALLOC_MMAP_THRESHOLD } from "@/server/cli/serve-command";

describe("dashboardServerEnv", () => {
  it("gives next start the workspace and glibc's fixed mmap threshold, keeping the caller's own setting", () => {
    const base: NodeJS.ProcessEnv = { ...process.env, CASEFILE_WORKSPACE: "/old" };
    delete base.MALLOC_MMAP_THRESHOLD_;
    expect(dashboardServerEnv(base, "/ws")).toEqual({ ...base, CASEFILE_WORKSPACE: "/ws", MALLOC_MMAP_THRESHOLD_: MALLOC_MMAP_THRESHOLD });
    expect(dashboardServerEnv({ ...base, MALLOC_MMAP_THRESHOLD_: "65536" }, "/ws").MALLOC_MMAP_THRESHOLD_).toBe("65536");
  });
});
