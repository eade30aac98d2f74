import { describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { buildTestWorkspace, TEST_PROJECT_KEY, userLines } from "@/lib/testing/workspace-builder";
import { checkPageTarget } from "@/lib/workspace/page-target";

describe("checkPageTarget (issue 8 probe: 404 and 400 before a page renders)", () => {
  it("names unknown projects and sessions not_found, known ones ok, and a malformed percent-encoding bad_encoding", async () => {
    const ctx = createCoreContext(await buildTestWorkspace([{ ref: "S0001", content: userLines(2) }]));
    expect(await checkPageTarget(ctx, `/projects/${TEST_PROJECT_KEY}`)).toEqual({ kind: "ok" });
    expect(await checkPageTarget(ctx, `/projects/${TEST_PROJECT_KEY}/sessions/S0001`)).toEqual({ kind: "ok" });
    expect(await checkPageTarget(ctx, `/projects/${TEST_PROJECT_KEY}/synthesis`)).toEqual({ kind: "ok" });
    expect(await checkPageTarget(ctx, "/projects/nope")).toMatchObject({ kind: "not_found" });
    expect(await checkPageTarget(ctx, "/projects/nope/synthesis")).toMatchObject({ kind: "not_found" });
    expect(await checkPageTarget(ctx, `/projects/${TEST_PROJECT_KEY}/sessions/S9999`)).toMatchObject({ kind: "not_found" });
    expect(await checkPageTarget(ctx, "/projects/%E0%A4%A")).toEqual({ kind: "bad_encoding", segment: "%E0%A4%A" });
    expect(await checkPageTarget(ctx, "/audit")).toEqual({ kind: "ok" });
  });
});
