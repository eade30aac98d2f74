import { describe, expect, it } from "vitest";

import { dashboardServerEnv, MALLOC_MMAP_THRESHOLD, SERVER_SEMI_SPACE_MB } from "@/server/cli/serve-command";

describe("dashboardServerEnv", () => {
  it("gives next start the workspace, glibc's fixed mmap threshold and a small young generation, keeping the caller's own settings", () => {
    const base: NodeJS.ProcessEnv = { ...process.env, CASEFILE_WORKSPACE: "/old", NODE_OPTIONS: "--trace-warnings" };
    delete base.MALLOC_MMAP_THRESHOLD_;
    expect(dashboardServerEnv(base, "/ws")).toEqual({
      ...base,
      CASEFILE_WORKSPACE: "/ws",
      MALLOC_MMAP_THRESHOLD_: MALLOC_MMAP_THRESHOLD,
      NODE_OPTIONS: `--trace-warnings --max-semi-space-size=${SERVER_SEMI_SPACE_MB}`,
    });
    const own = dashboardServerEnv({ ...base, MALLOC_MMAP_THRESHOLD_: "65536", NODE_OPTIONS: "--max-semi-space-size=16" }, "/ws");
    expect([own.MALLOC_MMAP_THRESHOLD_, own.NODE_OPTIONS]).toEqual(["65536", "--max-semi-space-size=16"]);
  });
});
