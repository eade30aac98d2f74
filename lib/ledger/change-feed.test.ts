import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { TEST_PROJECT_KEY, buildTestWorkspace, userLines } from "@/lib/testing/workspace-builder";
import { type WorkspaceChange, WorkspaceChangeFeed } from "@/lib/ledger/change-feed";

describe("WorkspaceChangeFeed", () => {
  it("tells listeners about a new evidence card and an envelope rename, and nothing otherwise", async () => {
    const root = await buildTestWorkspace([{ ref: "S0001", content: userLines(2) }]);
    const feed = new WorkspaceChangeFeed(root, 60_000);
    const seen: WorkspaceChange[] = [];
    const stop = feed.subscribe((c) => seen.push(c));
    await feed.tick();
    await feed.tick();
    expect(seen).toEqual([]);
    const dir = path.join(root, "projects", TEST_PROJECT_KEY);
    await fs.mkdir(path.join(dir, "evidence"));
    await fs.writeFile(path.join(dir, "evidence", "S0001.json"), "{}");
    await feed.tick();
    expect(seen.map((c) => c.version)).toEqual([1]);
    await fs.writeFile(path.join(dir, "project-synthesis.json.tmp"), "{}");
    await feed.tick();
    expect(seen).toHaveLength(1); // temp files are not watched
    await fs.rename(path.join(dir, "project-synthesis.json.tmp"), path.join(dir, "project-synthesis.json"));
    await feed.tick();
    expect(seen.map((c) => c.version)).toEqual([1, 2]);
    stop();
  });
});

describe("WorkspaceChangeFeed and the audit ledger", () => {
  it("reports a ledger append as an audit change, never as a workspace change", async () => {
    const root = await buildTestWorkspace([{ ref: "S0001", content: userLines(2) }]);
    const feed = new WorkspaceChangeFeed(root, 60_000);
    const seen: WorkspaceChange[] = [];
    const stop = feed.subscribe((c) => seen.push(c));
    await feed.tick();
    await fs.mkdir(path.join(root, "audit", "traces"), { recursive: true });
    await fs.writeFile(path.join(root, "audit", "traces", "tool-traces.jsonl"), "{}\n");
    await feed.tick();
    expect(seen.map((c) => c.scope)).toEqual(["audit"]);
    stop();
  });
});
