import fs from "node:fs/promises";
import path from "node:path";

import { beforeAll, describe, expect, it } from "vitest";

import { buildTestWorkspace, TEST_PROJECT_KEY } from "@/lib/testing/workspace-builder";
import { callToolHandler } from "@/server/http/tools";

let root = "";

beforeAll(async () => {
  root = await buildTestWorkspace([{ ref: "S0001", content: "{}\n" }]);
  process.env.CASEFILE_WORKSPACE = root;
  // Another project whose project.json names the wrong key: a hard error of the loader.
  const bad = path.join(root, "projects", "Bad-000000000000");
  await fs.mkdir(bad, { recursive: true });
  await fs.writeFile(path.join(bad, "project.json"), JSON.stringify({ schema_version: 3, project_key: "Other", project_label: "Bad" }));
});

describe("HTTP errors name workspace-relative paths (issue 12, item 8)", () => {
  it("a malformed project.json answers 422 naming projects/<key>/project.json, never the machine's path", async () => {
    const request = new Request("http://127.0.0.1/api/tools/list_sessions", { method: "POST", body: JSON.stringify({ project_key: TEST_PROJECT_KEY }) });
    const response = await callToolHandler(request, { params: Promise.resolve({ tool: "list_sessions" }) });
    expect(response.status).toBe(422);
    const text = await response.text();
    expect(text).not.toContain(root);
    expect(JSON.parse(text).error).toMatchObject({ code: "parse_error", message: "projects/Bad-000000000000/project.json project_key 'Other' must match directory 'Bad-000000000000'", path: "projects/Bad-000000000000/project.json" });
  });
});
