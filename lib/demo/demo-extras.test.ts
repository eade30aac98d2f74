/** The demo workspace shows every panel the README shows. */
import path from "node:path";

import { describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { generateDemoCodexSources, seedDemoWork } from "@/lib/demo/demo-extras";
import { generateDemoSources } from "@/lib/demo/generate-demo";
import { makeTempDir } from "@/lib/testing/shared";
import { callTool } from "@/lib/tools/registry";
import { listProjects } from "@/lib/workspace/projects";
import { syncWorkspace } from "@/lib/workspace/sync";

describe("the demo shows every panel the README shows (issue 12, item 2)", () => {
  it("has a Codex session, a subagent, an evidence chain and a synthesis item; seeding twice adds nothing", async () => {
    const dir = await makeTempDir("casefile-demo-");
    await generateDemoSources(path.join(dir, "claude"));
    await generateDemoCodexSources(path.join(dir, "codex"));
    const root = await makeTempDir("casefile-demo-ws-");
    const ctx = createCoreContext(root);
    const summary = await syncWorkspace(ctx, { sources: { claude: [path.join(dir, "claude")], codex: [path.join(dir, "codex")], demo: true } });
    expect(summary.skipped).toEqual([]);
    const projects = await listProjects(ctx);
    expect(projects.map((p) => [p.project_label, p.session_count, p.git_branch])).toEqual([
      ["acme-api", 2, "main"],
      ["billing-cli", 1, "feature/invoices"],
      ["docs-site", 1, "main"],
    ]);
    expect(await seedDemoWork(ctx, callTool)).toEqual(["write_evidence: appended", "write_work_item: appended"]);
    expect(await seedDemoWork(ctx, callTool)).not.toContain("write_evidence: appended");
  });
});
