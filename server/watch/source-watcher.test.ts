import fs from "node:fs/promises";
import path from "node:path";

import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { closeCatalog, catalogDb } from "@/lib/catalog/catalog";
import { createCoreContext, type CoreContext } from "@/lib/context";
import { derivedPath } from "@/lib/fs/workspace-layout";
import { makeTempDir } from "@/lib/testing/shared";
import { claudeLines } from "@/lib/testing/transcripts";
import { WorkspacePipeline } from "@/lib/pipeline/pipeline";

const BIG = "9a7e0000-0000-4000-8000-0000000000b1";
const SMALL = "9a7e0000-0000-4000-8000-0000000000a1";
let home = "";
let ctx: CoreContext | null = null;

beforeEach(async () => {
  home = await makeTempDir("casefile-follow-syncs-");
});

afterEach(async () => {
  if (ctx) closeCatalog(ctx);
  ctx = null;
  await fs.rm(home, { recursive: true, force: true });
});

const listed = (workspace: string, area: "analysis" | "forensics") => fs.readdir(derivedPath(workspace, area)).catch(() => [] as string[]);

describe("the server's syncs warm the pages of big sessions (issue 29)", () => {
  it("after the start-up sync's catalog refresh, stores the analysis, risk and scan of sessions at least warmMinBytes long only, and again for a big session that grew", async () => {
    const project = path.join(home, "claude", "-home-me-app");
    await fs.mkdir(project, { recursive: true });
    const bigFile = path.join(project, `${BIG}.jsonl`);
    await fs.writeFile(bigFile, claudeLines(BIG, "/home/me/app", 40));
    await fs.writeFile(path.join(project, `${SMALL}.jsonl`), claudeLines(SMALL, "/home/me/app", 1));
    const workspace = path.join(home, "workspace");
    ctx = createCoreContext(workspace);
    // The server's pipeline, with its background stages awaited so the test can look at what they stored.
    const pipeline = new WorkspacePipeline(ctx, { warmMinBytes: 4096, risk: "await", warm: "await", retryMs: 0 });

    // The start-up run: the sync, the rows, then risk and the warm-up.
    await pipeline.request({ sources: { claude: [path.join(home, "claude")], codex: [], demo: false } });
    const sizes = catalogDb(ctx).prepare("SELECT session_ref, size_bytes FROM sessions ORDER BY size_bytes").all() as { session_ref: string; size_bytes: number }[];
    expect(sizes).toHaveLength(2);
    expect(sizes[0]!.size_bytes).toBeLessThan(4096);
    expect(sizes[1]!.size_bytes).toBeGreaterThanOrEqual(4096);
    const bigRef = sizes[1]!.session_ref;
    // The catalog's risk pass stores every session's analysis and risk; the warm-up adds the big one's
    // Analysis tab views (token chart, first summary rows) and its scan.
    const analysis = await listed(workspace, "analysis");
    expect(analysis.filter((n) => n.includes(`--${bigRef}--`)).sort()).toEqual([
      expect.stringMatching(/--10000\.chart\.json$/),
      expect.stringMatching(/--10000\.json$/),
      expect.stringMatching(/--10000\.summary-50\.json$/),
      expect.stringMatching(/--risk\.json$/),
    ]);
    const smallRef = sizes[0]!.session_ref;
    expect(analysis.filter((n) => n.includes(`--${smallRef}--`)).sort()).toEqual([expect.stringMatching(/--10000\.json$/), expect.stringMatching(/--risk\.json$/)]);
    // Only the big session's scan (the small one is below warmMinBytes): its overview card is stored.
    const scans = (await listed(workspace, "forensics")).filter((n) => n.endsWith(".scan"));
    expect(scans).toHaveLength(1);
    const scanFile = derivedPath(workspace, "forensics", scans[0]!);
    const scanBefore = await fs.readFile(scanFile);

    // A sync that changed nothing: the scan is not rewritten.
    const unchanged = await pipeline.request();
    expect(unchanged.sync?.unchanged).toBe(true);
    expect((await fs.readFile(scanFile)).equals(scanBefore)).toBe(true);

    // The big session grows: the watcher's sync and refresh store the scan of its new version.
    await fs.appendFile(bigFile, claudeLines(BIG, "/home/me/app", 5, 41));
    await pipeline.request();
    expect((await fs.readFile(scanFile)).equals(scanBefore)).toBe(false);
    expect((await listed(workspace, "forensics")).filter((n) => n.endsWith(".scan"))).toEqual(scans);
  });
});
