/** The catalog's session machine (issue 39 provenance) follows the workspace's record. */
import fs from "node:fs/promises";
import path from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { catalogListSessions } from "@/lib/catalog/queries";
import { createCoreContext } from "@/lib/context";
import { makeTempDir } from "@/lib/testing/shared";
import { claudeLines } from "@/lib/testing/transcripts";
import type { ListSessionsResult } from "@/lib/workspace/schema";
import { syncWorkspace } from "@/lib/workspace/sync";

const ID = (n: number) => `6d0c1000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const saved = process.env.CASEFILE_MACHINE;
afterEach(() => {
  if (saved === undefined) delete process.env.CASEFILE_MACHINE;
  else process.env.CASEFILE_MACHINE = saved;
});

describe("the catalog's machine column (issue 39)", () => {
  it("is the local machine for an untagged root, follows a retag without the session file changing, and filters list_sessions", async () => {
    process.env.CASEFILE_MACHINE = "alpha";
    const src = path.join(await makeTempDir("casefile-catalog-machine-src-"), "-home-m-app");
    await fs.mkdir(src, { recursive: true });
    for (const n of [1, 2]) await fs.writeFile(path.join(src, `${ID(n)}.jsonl`), claudeLines(ID(n), "/home/m/app", 1));
    const root = await makeTempDir("casefile-catalog-machine-ws-");
    const ctx = createCoreContext(root, { oneShot: true });
    await syncWorkspace(ctx, { sources: { claude: [src], codex: [], demo: false } });
    const [key] = await fs.readdir(path.join(root, "projects"));
    const list = async (input: object = {}) => (await catalogListSessions(ctx, { project_key: key, sort: "session_ref", order: "asc", ...input })) as ListSessionsResult;
    const before = await list();
    expect(before.sessions.map((s) => [s.session_ref, s.machine])).toEqual([["S0001", "alpha"], ["S0002", "alpha"]]);
    expect(before.machines).toEqual(["alpha"]);

    await syncWorkspace(ctx, { sources: { claude: [src], codex: [], machines: { [src]: "beta" }, demo: false } });
    const after = await list();
    expect(after.sessions.map((s) => [s.session_ref, s.machine])).toEqual([["S0001", "beta"], ["S0002", "beta"]]);
    expect(after.machines).toEqual(["beta"]);
    expect((await list({ machine: "alpha" })).total).toBe(0);
    expect((await list({ machine: "beta" })).total).toBe(2);
  });
});
