import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { AppError } from "@/lib/errors";
import { getEvidenceCardTool } from "@/lib/evidence/tools";
import { buildTestWorkspace, TEST_PROJECT_KEY, userLines } from "@/lib/testing/workspace-builder";
import { invokeToolForUi } from "@/lib/tools/registry";
import { isToolPageError, orToolError } from "@/server/queries/tool-error";

/* Pages map a tool's refusal of their own read to a clear error panel, never a 500 (issue 26). */

describe("orToolError", () => {
  it("turns the evidence card symlinked out of the workspace into a page error naming it", async () => {
    const root = await buildTestWorkspace([{ ref: "S0001", content: userLines(3), turns: [{ turn_ref: "T0001", turn_start_line: 1, turn_end_line: 3 }] }]);
    const outside = path.join(await fs.mkdtemp(path.join(os.tmpdir(), "casefile-outside-")), "card.json");
    await fs.writeFile(outside, "{}");
    const evidence = path.join(root, "projects", TEST_PROJECT_KEY, "evidence");
    await fs.mkdir(evidence, { recursive: true });
    await fs.symlink(outside, path.join(evidence, "S0001.json"));
    const read = () => invokeToolForUi(createCoreContext(root), getEvidenceCardTool, { project_key: TEST_PROJECT_KEY, session_ref: "S0001" });
    await expect(read()).rejects.toMatchObject({ code: "invalid_input", message: expect.stringContaining("resolves outside") });
    const result = await orToolError(read);
    expect(isToolPageError(result)).toBe(true);
    expect(result).toMatchObject({ kind: "tool_error", code: "invalid_input", message: expect.stringContaining("evidence/S0001.json' resolves outside") });
  });

  it("passes a result through, and rethrows what is not a refusal of the input", async () => {
    expect(await orToolError(async () => ({ status: "ok" }))).toEqual({ status: "ok" });
    await expect(orToolError(async () => Promise.reject(new AppError("io_error", "disk")))).rejects.toMatchObject({ code: "io_error" });
  });
});
