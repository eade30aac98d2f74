/** Tests of checkPageTarget: 404 and 400 before a page renders. */
import { describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { registerControlPlaneRoots } from "@/lib/sources/control-plane/projects";
import { scriptSession, writeControlPlaneRoot } from "@/lib/testing/control-plane-builder";
import { makeTempDir } from "@/lib/testing/shared";
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

  it("checks a project's other pages and a session's tabs too (they sit under a loading view)", async () => {
    const ctx = createCoreContext(await buildTestWorkspace([{ ref: "S0001", content: userLines(2) }]));
    for (const tab of ["timeline", "analysis", "export"]) {
      expect(await checkPageTarget(ctx, `/projects/${TEST_PROJECT_KEY}/sessions/S0001/${tab}`)).toEqual({ kind: "ok" });
      expect(await checkPageTarget(ctx, `/projects/${TEST_PROJECT_KEY}/sessions/S9999/${tab}`)).toMatchObject({ kind: "not_found" });
      expect(await checkPageTarget(ctx, `/projects/nope/sessions/S0001/${tab}`)).toMatchObject({ kind: "not_found" });
    }
    expect(await checkPageTarget(ctx, `/projects/${TEST_PROJECT_KEY}/search`)).toEqual({ kind: "ok" });
    expect(await checkPageTarget(ctx, "/projects/nope/search")).toMatchObject({ kind: "not_found" });
    expect(await checkPageTarget(ctx, `/projects/${TEST_PROJECT_KEY}/ledgers/ho2m`)).toMatchObject({ kind: "not_found", what: expect.stringContaining("no ledgers") });
    expect(await checkPageTarget(ctx, `/projects/${TEST_PROJECT_KEY}/sessions/S0001/unknown-tab`)).toEqual({ kind: "ok" });
  });

  it("lets a registered Control Plane project's pages through (issue 11); a non-SES session ref is not_found", async () => {
    const ctx = createCoreContext(await buildTestWorkspace([{ ref: "S0001", content: userLines(1) }]));
    const root = await makeTempDir("casefile-cp-page-");
    await writeControlPlaneRoot(root, scriptSession({ sessionId: "SES-PAGE0001", start: 0, turns: [{ user: "hi", response: "hello" }] }));
    const key = (await registerControlPlaneRoots(ctx, [root])).projects[0]!.project_key;
    expect(await checkPageTarget(ctx, `/projects/${key}`)).toEqual({ kind: "ok" });
    expect(await checkPageTarget(ctx, `/projects/${key}/sessions/SES-PAGE0001`)).toEqual({ kind: "ok" });
    expect(await checkPageTarget(ctx, `/projects/${key}/sessions/S0001`)).toMatchObject({ kind: "not_found" });
    expect(await checkPageTarget(ctx, `/projects/${key}/sessions/SES-NOPE0001`)).toMatchObject({ kind: "not_found" });
    expect(await checkPageTarget(ctx, `/projects/${key}/ledgers/ho2m`)).toEqual({ kind: "ok" });
    expect(await checkPageTarget(ctx, `/projects/${key}/ledgers/nope`)).toMatchObject({ kind: "not_found" });
  });
});
