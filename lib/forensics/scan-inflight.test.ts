/** Concurrent callers of scanSession share one pass. */
import { describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { generateDemoSources } from "@/lib/demo/generate-demo";
import { scanSession } from "@/lib/forensics/scan";
import { makeTempDir } from "@/lib/testing/shared";
import { prepareWorkspace } from "@/lib/workspace/prepare";
import { getSession } from "@/lib/workspace/sessions";

describe("scanSession shares one pass between concurrent callers (issue 13)", () => {
  it("gives both callers the same scan, and the cached one afterwards", async () => {
    const sources = await makeTempDir();
    await generateDemoSources(sources);
    const ctx = createCoreContext(await makeTempDir());
    const summary = await prepareWorkspace(ctx, { claudeRoots: [sources] });
    const session = await getSession(ctx, summary.projects[0]!.project_key, "S0001");
    const [a, b] = await Promise.all([scanSession(ctx, session), scanSession(ctx, session)]);
    expect(b).toBe(a);
    expect(await scanSession(ctx, session)).toBe(a);
  });
});
