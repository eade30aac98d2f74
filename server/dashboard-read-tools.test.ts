import { beforeAll, describe, expect, it } from "vitest";

import { createCoreContext, type CoreContext } from "@/lib/context";
import { isAppError } from "@/lib/errors";
import { evidenceCoverage } from "@/lib/evidence/coverage";
import { getEvidenceCoverageTool } from "@/lib/evidence/tools";
import { LedgerIndex } from "@/lib/ledger/ledger-index";
import { ledgerPaths } from "@/lib/ledger/paths";
import { getWorkspaceOverviewTool } from "@/lib/overview/tools";
import { getWorkspaceOverview } from "@/lib/overview/workspace-overview";
import { getControlPlaneProjectTool } from "@/lib/sources/control-plane/tools";
import { getSynthesisState } from "@/lib/synthesis/synthesis-state";
import { getSynthesisStateTool } from "@/lib/synthesis/tools";
import { copyFixtureWorkspace, HAS_SHARED, makeTempDir, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { buildTestWorkspace, TEST_PROJECT_KEY, userLines } from "@/lib/testing/workspace-builder";
import { AGENT_TOOLS, callTool, findTool, invokeToolForUi } from "@/lib/tools/registry";
import { loadWorkspace } from "@/lib/workspace/load";
import { getProject, getSessionDetail, getWorkspaceInfo } from "@/lib/workspace/projects";
import { readSources } from "@/lib/workspace/sources";
import { getProjectTool, getSessionDetailTool, getWorkspaceInfoTool, isDemoWorkspaceTool } from "@/lib/workspace/tools";
import { getOverviewHandler } from "@/server/http/overview";
import { getSynthesisStateHandler } from "@/server/http/synthesis";

/**
 * Issue 8, item 1: the dashboard's reads are registered tools (audience "dashboard",
 * read-only), and each answers exactly what the lib function it wraps returns, so moving the
 * server queries onto the registry changes no page.
 */
const DASHBOARD_READS = ["get_project", "get_session_detail", "get_workspace_info", "is_demo_workspace", "get_evidence_coverage", "get_synthesis_state", "get_workspace_overview"];

/** Strips the tool's `status: "ok"` so the rest compares with the lib function's value. */
function data<T extends { status: string }>(result: T): Omit<T, "status"> {
  expect(result.status).toBe("ok");
  const { status: _status, ...rest } = result;
  return rest;
}

/** A call's value, or the code of the AppError it threw. */
async function outcome(promise: Promise<unknown>): Promise<{ value: unknown } | { code: string }> {
  try {
    return { value: await promise };
  } catch (error) {
    return { code: isAppError(error) ? error.code : "other" };
  }
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "none";
  } catch (error) {
    return isAppError(error) ? error.code : "other";
  }
}

describe("dashboard read tools in the registry", () => {
  it.each(DASHBOARD_READS)("%s is registered, read-only, for the dashboard only", (name) => {
    const tool = findTool(name);
    expect(tool?.readOnly).toBe(true);
    expect(tool?.audience).toBe("dashboard");
    expect(AGENT_TOOLS.some((t) => t.name === name)).toBe(false);
  });
});

/** Every new tool against its lib function on one workspace (the first three sessions of each project). */
async function compareAll(ctx: CoreContext) {
  const ws = await loadWorkspace(ctx);
  let details = 0;
  for (const project of ws.projects) {
    const key = project.projectKey;
    expect((await invokeToolForUi(ctx, getProjectTool, { project_key: key })).project).toEqual(await getProject(ctx, key));
    expect(data(await invokeToolForUi(ctx, getEvidenceCoverageTool, { project_key: key }))).toEqual(await evidenceCoverage(ctx, key));
    expect(data(await invokeToolForUi(ctx, getSynthesisStateTool, { project_key: key }))).toEqual(await getSynthesisState(ctx, key));
    for (const row of project.rows.slice(0, 3)) {
      // A fixture may index a session whose file it does not ship: then both answer not_found.
      const viaTool = await outcome(invokeToolForUi(ctx, getSessionDetailTool, { project_key: key, session_ref: row.session_ref }).then((r) => r.detail));
      expect(viaTool).toEqual(await outcome(getSessionDetail(ctx, key, row.session_ref, undefined, { turns: false })));
      if ("value" in viaTool) details += 1;
    }
  }
  expect(data(await invokeToolForUi(ctx, getWorkspaceInfoTool, {}))).toEqual(await getWorkspaceInfo(ctx));
  expect((await invokeToolForUi(ctx, isDemoWorkspaceTool, {})).demo).toBe((await readSources(ctx.workspaceRoot).catch(() => null))?.demo === true);
  expect(data(await invokeToolForUi(ctx, getWorkspaceOverviewTool, {}))).toEqual(await getWorkspaceOverview(ctx));
  return { ws, details };
}

describe("dashboard read tools on a built workspace", () => {
  let ctx: CoreContext;
  beforeAll(async () => {
    ctx = createCoreContext(await buildTestWorkspace([{ ref: "S0001", content: userLines(12), turns: [{ turn_ref: "T0001", turn_start_line: 1, turn_end_line: 12 }] }]));
    process.env.CASEFILE_WORKSPACE = ctx.workspaceRoot;
  });

  it("the polled HTTP reads answer through the tools with the bodies they had (GET /api/overview, /api/projects/<key>/synthesis)", async () => {
    const overview = await getOverviewHandler();
    expect(overview.status).toBe(200);
    expect(await overview.json()).toEqual(await getWorkspaceOverview(ctx));

    const params = { params: Promise.resolve({ projectKey: TEST_PROJECT_KEY }) };
    const first = await getSynthesisStateHandler(new Request("http://127.0.0.1/api/projects/x/synthesis"), params);
    expect(first.status).toBe(200);
    expect(await first.text()).toBe(JSON.stringify(await getSynthesisState(ctx, TEST_PROJECT_KEY)));
    const etag = first.headers.get("etag")!;
    const again = await getSynthesisStateHandler(new Request("http://127.0.0.1/api/projects/x/synthesis", { headers: { "if-none-match": etag } }), { params: Promise.resolve({ projectKey: TEST_PROJECT_KEY }) });
    expect(again.status).toBe(304);
    const missing = await getSynthesisStateHandler(new Request("http://127.0.0.1/api/projects/x/synthesis"), { params: Promise.resolve({ projectKey: "Nope-000000000000" }) });
    expect(missing.status).toBe(404);
  });

  it("answers what the lib functions return", async () => {
    const { ws, details } = await compareAll(ctx);
    expect([ws.projects.length, details]).toEqual([1, 1]);
  });

  it("keeps not_found for unknown keys and refs (the pages' notFound())", async () => {
    expect(await codeOf(invokeToolForUi(ctx, getProjectTool, { project_key: "Nope-000000000000" }))).toBe("not_found");
    expect(await codeOf(invokeToolForUi(ctx, getEvidenceCoverageTool, { project_key: "Nope-000000000000" }))).toBe("not_found");
    expect(await codeOf(invokeToolForUi(ctx, getSynthesisStateTool, { project_key: "Nope-000000000000" }))).toBe("not_found");
    expect(await codeOf(invokeToolForUi(ctx, getSessionDetailTool, { project_key: TEST_PROJECT_KEY, session_ref: "S9999" }))).toBe(
      await codeOf(getSessionDetail(ctx, TEST_PROJECT_KEY, "S9999", undefined, { turns: false })),
    );
    expect(await codeOf(invokeToolForUi(ctx, getSessionDetailTool, { project_key: TEST_PROJECT_KEY, session_ref: "S0001", agent_id: "no-such-agent" }))).toBe(
      await codeOf(getSessionDetail(ctx, TEST_PROJECT_KEY, "S0001", "no-such-agent", { turns: false })),
    );
  });

  it("refuses an empty project_key as invalid input (UI door: thrown; other doors: an invalid result)", async () => {
    expect(await codeOf(invokeToolForUi(ctx, getProjectTool, { project_key: "" }))).toBe("invalid_input");
    const result = await callTool(ctx, "get_project", { project_key: "" }, { door: "http" });
    expect(result.status).toBe("invalid");
  });

  it("is_demo_workspace answers false, never throws, on a directory that is no workspace", async () => {
    const empty = createCoreContext(await makeTempDir("casefile-nows-"));
    expect((await invokeToolForUi(empty, isDemoWorkspaceTool, {})).demo).toBe(false);
  });
});

describe.skipIf(!HAS_SHARED)(`dashboard read tools on prompt-diary fixtures${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  it("project-synthesis/disposition-scope: each tool answers what its lib function returns", async () => {
    const { ws, details } = await compareAll(createCoreContext(await copyFixtureWorkspace("project-synthesis/disposition-scope/workspace")));
    expect([ws.projects.length, details]).toEqual([1, 3]);
  });

  it("daily-synthesis/two-projects (index rows without session files): same answers, same not_found", async () => {
    const { ws } = await compareAll(createCoreContext(await copyFixtureWorkspace("daily-synthesis/two-projects/workspace")));
    expect(ws.projects.length).toBe(2);
  });
});

describe("page reads every open page repeats stay off the audit record (issue 8)", () => {
  it("a ui call of a polled read writes no ledger entry; the same tool through HTTP is recorded", async () => {
    const ctx = createCoreContext(await buildTestWorkspace([{ ref: "S0001", content: userLines(4), turns: [{ turn_ref: "T0001", turn_start_line: 1, turn_end_line: 4 }] }]));
    const recorded = async () => {
      const index = new LedgerIndex(ledgerPaths(ctx.workspaceRoot));
      await index.refresh();
      return [...index.receipts.values()].map((r) => `${r.started!.door}:${r.started!.tool_name}`).sort();
    };
    await invokeToolForUi(ctx, isDemoWorkspaceTool, {});
    await invokeToolForUi(ctx, getWorkspaceOverviewTool, {});
    await invokeToolForUi(ctx, getSynthesisStateTool, { project_key: TEST_PROJECT_KEY });
    await invokeToolForUi(ctx, getControlPlaneProjectTool, { project_key: TEST_PROJECT_KEY });
    expect(await recorded()).toEqual([]);
    await callTool(ctx, "get_workspace_overview", {}, { door: "http" });
    await invokeToolForUi(ctx, getProjectTool, { project_key: TEST_PROJECT_KEY });
    expect(await recorded()).toEqual(["http:get_workspace_overview", "ui:get_project"]);
  });
});
