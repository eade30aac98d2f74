import { describe, expect, it } from "vitest";

import { dashboardServerEnv, MALLOC_MMAP_THRESHOLD } from "@/server/cli/serve-command";

describe("dashboardServerEnv", () => {
  it("gives next start the workspace and glibc's fixed mmap threshold, keeping the caller's own setting", () => {
    const env = dashboardServerEnv({ PATH: "/bin", CASEFILE_WORKSPACE: "/old" } as NodeJS.ProcessEnv, "/ws");
    expect(env).toEqual({ PATH: "/bin", CASEFILE_WORKSPACE: "/ws", MALLOC_MMAP_THRESHOLD_: MALLOC_MMAP_THRESHOLD });
    expect(dashboardServerEnv({ MALLOC_MMAP_THRESHOLD_: "65536" } as NodeJS.ProcessEnv, "/ws").MALLOC_MMAP_THRESHOLD_).toBe("65536");
  });
});
