/** Tests of WorkspaceChangeFeed. */
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { TEST_PROJECT_KEY, buildTestWorkspace, userLines } from "@/lib/testing/workspace-builder";
import { writeFileAtomic } from "@/lib/fs/atomic-write";
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

describe("WorkspaceChangeFeed's two sweeps (issue 25: no stat of every card on every tick)", () => {
  it("sees an atomic card write on the next tick from the folder, and an in-place edit only on the card-by-card sweep", async () => {
    const root = await buildTestWorkspace([{ ref: "S0001", content: userLines(2) }]);
    const fullSweepEvery = 4;
    const feed = new WorkspaceChangeFeed(root, 60_000, fullSweepEvery);
    const seen: WorkspaceChange[] = [];
    const stop = feed.subscribe((c) => seen.push(c));
    await feed.tick();
    const evidence = path.join(root, "projects", TEST_PROJECT_KEY, "evidence");
    await fs.mkdir(evidence);
    await writeFileAtomic(path.join(evidence, "S0001.json"), "{}");
    await feed.tick();
    expect(seen).toHaveLength(1);
    // Reported once: the following card-by-card sweeps see nothing new.
    for (let i = 0; i < fullSweepEvery; i += 1) await feed.tick();
    expect(seen).toHaveLength(1);
    // An in-place edit leaves the folder as it was: the fast ticks miss it, the card-by-card sweep finds it.
    const before = (await fs.stat(evidence)).mtimeMs;
    await fs.appendFile(path.join(evidence, "S0001.json"), " ");
    expect((await fs.stat(evidence)).mtimeMs).toBe(before);
    let ticks = 0;
    while (seen.length === 1 && ticks < fullSweepEvery + 1) {
      await feed.tick();
      ticks += 1;
    }
    expect(seen).toHaveLength(2);
    expect(ticks).toBeGreaterThan(1); // the next fast tick missed it
    // The catalog's refresh announces itself: a workspace change without a file moving.
    feed.announce();
    expect(seen.map((c) => c.scope)).toEqual(["workspace", "workspace", "workspace"]);
    stop();
    feed.announce();
    expect(seen).toHaveLength(3);
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
