import { beforeAll, describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { buildTestWorkspace, TEST_PROJECT_KEY, userLines } from "@/lib/testing/workspace-builder";
import { callTool, serializeToolResult } from "@/lib/tools/registry";
import { tokenChartHandler } from "@/server/http/analysis";

let root: string;

beforeAll(async () => {
  root = await buildTestWorkspace([{ ref: "S0001", content: userLines(12), turns: [{ turn_ref: "T0001", turn_start_line: 1, turn_end_line: 12 }] }]);
  process.env.CASEFILE_WORKSPACE = root;
});

const get = (sessionRef: string, query = "") =>
  tokenChartHandler(new Request(`http://127.0.0.1/api/projects/${TEST_PROJECT_KEY}/sessions/${sessionRef}/token-chart${query}`), { params: Promise.resolve({ projectKey: TEST_PROJECT_KEY, sessionRef }) });

describe("the Analysis tab's chart door (issue 29)", () => {
  it("GET …/token-chart answers read_token_chart's own result, its query passed as input", async () => {
    const response = await get("S0001", "?threshold=5000");
    expect(response.status).toBe(200);
    const direct = await callTool(createCoreContext(root), "read_token_chart", { project_key: TEST_PROJECT_KEY, session_ref: "S0001", threshold: 5000 }, { door: "cli" });
    expect(await response.text()).toBe(serializeToolResult(direct));
    expect(direct).toMatchObject({ status: "ok", line_count: 12, point_total: 0, reset_total: 0, markers: [] });
  });

  it("an unknown session or a bad threshold is the seeds' invalid result with status 400", async () => {
    const unknown = await get("S0404");
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ status: "invalid", errors: [{ field: "session_ref" }] });
    const bad = await get("S0001", "?threshold=0");
    expect(bad.status).toBeGreaterThanOrEqual(400);
  });
});
