/** Tests of SourceWatcher. */
import fs from "node:fs/promises";
import path from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { makeTempDir } from "@/lib/testing/shared";
import { claudeLines } from "@/lib/testing/transcripts";
import { SourceWatcher } from "@/lib/workspace/source-watcher";
import { editSources } from "@/lib/workspace/sources";
import { syncWorkspace, type SyncSummary } from "@/lib/workspace/sync";

const ID = (n: number) => `3a7c0000-0000-4000-8000-${String(n).padStart(12, "0")}`;
// NOTE: generous on purpose (a loaded CI machine); the watcher normally lands a change in well under 1 s.
const POLL = { timeout: 20_000, interval: 100 };

let watcher: SourceWatcher | null = null;
afterEach(async () => {
  await watcher?.close();
  watcher = null;
});

async function rows(root: string): Promise<[string, string, number][]> {
  try {
    const projects = (await fs.readdir(path.join(root, "projects"))).sort();
    const out: [string, string, number][] = [];
    for (const p of projects) {
      const text = await fs.readFile(path.join(root, "projects", p, "sessions.index.jsonl"), "utf8");
      for (const l of text.trim().split("\n")) {
        const r = JSON.parse(l) as { session_ref: string; source_session_id: string; turns: unknown[] };
        out.push([r.session_ref, r.source_session_id, r.turns.length]);
      }
    }
    return out;
  } catch {
    return [];
  }
}

async function writeAtomically(file: string, text: string) {
  await fs.writeFile(`${file}.tmp`, text);
  await fs.rename(`${file}.tmp`, file);
}

describe("SourceWatcher (issue 12, item 1)", () => {
  it("indexes a session added, grown and rewritten while it runs, keeps refs, and reads only the changed file", async () => {
    const sources = await makeTempDir("casefile-watch-src-");
    const dir = path.join(sources, "-home-watch-app");
    await fs.mkdir(dir, { recursive: true });
    const file = (n: number) => path.join(dir, `${ID(n)}.jsonl`);
    for (const n of [1, 2]) await fs.writeFile(file(n), claudeLines(ID(n), "/home/watch/app", 2));
    const root = await makeTempDir("casefile-watch-ws-");
    const ctx = createCoreContext(root);
    await syncWorkspace(ctx, { sources: { claude: [sources], codex: [], demo: false } });

    const syncs: SyncSummary[] = [];
    const errors: unknown[] = [];
    watcher = new SourceWatcher(ctx, { debounceMs: 50, onSync: (s) => syncs.push(s), onError: (e) => errors.push(e) });
    await watcher.start();
    await expect.poll(() => syncs.length, POLL).toBeGreaterThan(0); // the start-up sync
    expect(syncs[0]!.files_read).toBe(0);
    const readSince = (from: number) => new Set(syncs.slice(from).flatMap((s) => s.read_paths));

    let mark = syncs.length;
    await writeAtomically(file(3), claudeLines(ID(3), "/home/watch/app", 1));
    await expect.poll(() => rows(root), POLL).toEqual([["S0001", ID(1), 2], ["S0002", ID(2), 2], ["S0003", ID(3), 1]]);
    await expect.poll(() => readSince(mark), POLL).toEqual(new Set([file(3)]));

    mark = syncs.length;
    await fs.appendFile(file(1), claudeLines(ID(1), "/home/watch/app", 2, 3));
    await expect.poll(() => rows(root), POLL).toEqual([["S0001", ID(1), 4], ["S0002", ID(2), 2], ["S0003", ID(3), 1]]);
    await expect.poll(() => readSince(mark), POLL).toEqual(new Set([file(1)]));

    mark = syncs.length;
    await writeAtomically(file(2), claudeLines(ID(2), "/home/watch/app", 3));
    await expect.poll(() => rows(root), POLL).toEqual([["S0001", ID(1), 4], ["S0002", ID(2), 3], ["S0003", ID(3), 1]]);
    await expect.poll(() => readSince(mark), POLL).toEqual(new Set([file(2)]));
    expect(errors).toEqual([]);
  }, 90_000);

  it("follows a source added with casefile sources while it runs", async () => {
    const root = await makeTempDir("casefile-watch-ws-");
    const ctx = createCoreContext(root);
    const syncs: SyncSummary[] = [];
    watcher = new SourceWatcher(ctx, { debounceMs: 50, sourcesPollMs: 100, onSync: (s) => syncs.push(s) });
    await watcher.start();
    const sources = await makeTempDir("casefile-watch-late-");
    await fs.mkdir(path.join(sources, "-home-late"), { recursive: true });
    await fs.writeFile(path.join(sources, "-home-late", `${ID(9)}.jsonl`), claudeLines(ID(9), "/home/late", 1));
    await editSources(root, { add: { kind: "claude", path: sources } });
    await expect.poll(() => rows(root), POLL).toEqual([["S0001", ID(9), 1]]);
  }, 60_000);
});
