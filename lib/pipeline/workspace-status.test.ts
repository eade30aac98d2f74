import fs from "node:fs/promises";
import path from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { closeCatalog } from "@/lib/catalog/catalog";
import { fillFullText, fullTextCoverage } from "@/lib/catalog/full-text-index";
import { refreshCatalog } from "@/lib/catalog/refresh";
import { createCoreContext, type CoreContext } from "@/lib/context";
import { AppError } from "@/lib/errors";
import { WorkspacePipeline } from "@/lib/pipeline/pipeline";
import { getWorkspaceStatus, StatusRecorder, WATCH_AFTER_MS } from "@/lib/pipeline/workspace-status";
import { makeTempDir } from "@/lib/testing/shared";
import { claudeLines } from "@/lib/testing/transcripts";
import { buildTestWorkspace, userLines } from "@/lib/testing/workspace-builder";
import { callTool } from "@/lib/tools/registry";

const contexts: CoreContext[] = [];
afterEach(() => {
  for (const ctx of contexts.splice(0)) closeCatalog(ctx);
});

/** A context of `root` whose clock reads `clock.t` (ms). */
function contextAt(root: string, clock: { t: number }): CoreContext {
  const ctx = createCoreContext(root, { now: () => new Date(clock.t) });
  contexts.push(ctx);
  return ctx;
}

/** `workspace_status` through the registry, as every door calls it. */
const status = (ctx: CoreContext) => callTool(ctx, "workspace_status", {}, { door: "cli" });

const ready = (n: number) => ({ status: "ok", phase: "ready", done: n, total: n, sessions_indexed: n, sessions_total: n, started_at: null, last_error: null });

describe("workspace_status (issue 36 item 2)", () => {
  it("without a pipeline in the process, answers from the catalog: indexing until the full-text index covers every session, then ready", async () => {
    const root = await buildTestWorkspace([
      { ref: "S0001", content: userLines(5) },
      { ref: "S0002", content: userLines(8) },
    ]);
    const ctx = contextAt(root, { t: Date.now() });
    expect(await status(ctx)).toEqual({ status: "ok", phase: "indexing", done: 0, total: 2, sessions_indexed: 0, sessions_total: 2, started_at: null, last_error: null });
    await fillFullText(ctx);
    expect(await status(ctx)).toEqual(ready(2));
  });

  it("with a pipeline that has no stage at work (before the watcher's first run), an index that falls short is indexing, not ready", async () => {
    const root = await buildTestWorkspace([
      { ref: "S0001", content: userLines(5) },
      { ref: "S0002", content: userLines(8) },
    ]);
    const clock = { t: 1_000_000 };
    const ctx = contextAt(root, clock);
    await refreshCatalog(ctx);
    const recorder = new StatusRecorder(ctx.workspaceRoot, () => clock.t);
    recorder.open();
    try {
      expect(await status(ctx)).toMatchObject({ phase: "indexing", sessions_indexed: 0, sessions_total: 2 });
      await fillFullText(ctx);
      expect(await status(ctx)).toEqual(ready(2));
    } finally {
      recorder.close();
    }
  });

  it("with a pipeline, reports the first stage that has run 2 s (syncing, then cataloguing, then indexing), when the work began, and the last error until its stage runs again", async () => {
    const root = await buildTestWorkspace([{ ref: "S0001", content: userLines(5) }]);
    const clock = { t: 1_000_000 };
    const ctx = contextAt(root, clock);
    await refreshCatalog(ctx);
    await fillFullText(ctx);
    const recorder = new StatusRecorder(ctx.workspaceRoot, () => clock.t);
    recorder.open();
    try {
      const began = new Date(clock.t).toISOString();
      const sync = recorder.begin("syncing");
      recorder.progress("syncing", 5, 40);
      clock.t += WATCH_AFTER_MS - 1;
      // A stage younger than 2 s is not worth watching (a live sync of one session): all is ready.
      expect(await status(ctx)).toEqual(ready(1));
      clock.t += 1;
      expect(recorder.watchable("syncing", sync)).toBe(true);
      expect(await status(ctx)).toEqual({ status: "ok", phase: "syncing", done: 5, total: 40, sessions_indexed: 1, sessions_total: 1, started_at: began, last_error: null });

      // The fill of an earlier run goes on while the next sync runs: the sync is reported first.
      const fill = recorder.begin("indexing");
      clock.t += WATCH_AFTER_MS;
      expect(await status(ctx)).toMatchObject({ phase: "syncing", started_at: began });
      recorder.end("syncing", sync);
      expect(recorder.watchable("syncing", sync)).toBe(false);
      // Indexing counts the catalog's coverage, whatever the fill last reported.
      recorder.progress("indexing", 0, 1);
      expect(await status(ctx)).toEqual({ status: "ok", phase: "indexing", done: 1, total: 1, sessions_indexed: 1, sessions_total: 1, started_at: began, last_error: null });

      recorder.failed("full-text index", new AppError("io_error", "the index lock was not taken within 30 s"));
      recorder.end("indexing", fill);
      const failedAt = new Date(clock.t).toISOString();
      expect(await status(ctx)).toEqual({ ...ready(1), last_error: { stage: "full-text index", message: "io_error: the index lock was not taken within 30 s", at: failedAt } });
      recorder.succeeded("full-text index");
      expect(await status(ctx)).toEqual(ready(1));
    } finally {
      recorder.close();
    }
  });

  it("a server's pipeline: ready with every session indexed once its run and fill end; a failed sync is its last error; closed, the catalog answers again", async () => {
    const home = await makeTempDir("casefile-status-");
    try {
      const project = path.join(home, "claude", "-home-me-app");
      await fs.mkdir(project, { recursive: true });
      for (const id of ["9a7e0000-0000-4000-8000-0000000000a1", "9a7e0000-0000-4000-8000-0000000000a2"]) await fs.writeFile(path.join(project, `${id}.jsonl`), claudeLines(id, "/home/me/app", 3));
      const ctx = contextAt(path.join(home, "workspace"), { t: Date.now() });
      const pipeline = new WorkspacePipeline(ctx, { fullText: "background", warm: "skip", retryMs: 0 });
      try {
        await pipeline.request({ sources: { claude: [path.join(home, "claude")], codex: [], demo: false } });
        await pipeline.settled();
        expect(await status(ctx)).toEqual(ready(2));
      } finally {
        await pipeline.close();
      }

      // No sources recorded: the sync fails, and says so until a sync succeeds.
      const bare = contextAt(await buildTestWorkspace([{ ref: "S0001", content: userLines(3) }]), { t: Date.parse("2026-05-12T09:00:00Z") });
      const failing = new WorkspacePipeline(bare, { retryMs: 0, warm: "skip" });
      try {
        await expect(failing.request()).rejects.toThrow("the workspace records no sources");
        expect(await status(bare)).toMatchObject({ phase: "ready", last_error: { stage: "sync", message: "not_found: the workspace records no sources", at: "2026-05-12T09:00:00.000Z" } });
      } finally {
        await failing.close();
      }
      expect(await status(bare)).toMatchObject({ phase: "indexing", sessions_total: 1, last_error: null });
    } finally {
      await fs.rm(home, { recursive: true, force: true });
    }
  });
});

it("in a long-running process without a pipeline at work (no recorded sources: no watcher's run), an index that falls short is filled when the status is asked, as a search fills it", async () => {
  const root = await buildTestWorkspace([{ ref: "S0001", content: userLines(12) }, { ref: "S0002", content: userLines(5) }]);
  const server = createCoreContext(root);
  await refreshCatalog(server);
  const first = await getWorkspaceStatus(server);
  expect(first).toMatchObject({ phase: "indexing", sessions_indexed: 0, sessions_total: 2 });
  // The fill the status asked for runs in the background: the index fills without another ask.
  for (let i = 0; i < 200 && (await fullTextCoverage(server)).sessions_indexed < 2; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(await fullTextCoverage(server)).toEqual({ sessions_indexed: 2, sessions_total: 2 });
  expect(await getWorkspaceStatus(server)).toMatchObject({ phase: "ready", sessions_indexed: 2, sessions_total: 2 });
  closeCatalog(server);
});
