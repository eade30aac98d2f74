/** Issue 35, item 4: derived data under `.casefile/` that is corrupt, truncated or unwritable is set aside and rebuilt, never a failure. */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";

import { catalogDb, closeCatalog, withCatalog } from "@/lib/catalog/catalog";
import { requestFullTextFill } from "@/lib/catalog/full-text-fill";
import { searchSessionsInputSchema } from "@/lib/catalog/schema";
import { listProjectsTool, listSessionsTool, searchSessionsTool } from "@/lib/catalog/tools";
import { createCoreContext, type CoreContext } from "@/lib/context";
import { CASEFILE_DIR, catalogPath, projectDir } from "@/lib/fs/workspace-layout";
import { clearLineIndexCache } from "@/lib/jsonl/line-index";
import { PERSISTED_INDEX_MIN_BYTES } from "@/lib/jsonl/line-index";
import { lineIndexCachePath } from "@/lib/jsonl/line-index-file";
import { readSessionLines } from "@/lib/session-reader/read-session-lines";
import { compactRecordCache } from "@/lib/session-reader/record-cache";
import { buildTestWorkspace, TEST_PROJECT_KEY, userLines } from "@/lib/testing/workspace-builder";
import { workspaceIndexDir } from "@/lib/workspace/sessions";

const SEARCH = searchSessionsInputSchema.parse({ query: "message 4" });

/** A two-session workspace whose catalog (rows and full-text index) is built, then closed (checkpointed: no WAL left), with its warnings. */
async function setup(s0002 = userLines(5)) {
  const root = await buildTestWorkspace([
    { ref: "S0001", content: userLines(3) },
    { ref: "S0002", content: s0002 },
  ]);
  const warnings: string[] = [];
  // One-shot, as the CLI: a search indexes what is missing before it answers.
  const ctx = createCoreContext(root, { log: { info: () => {}, warn: (m) => warnings.push(m), error: () => {} }, oneShot: true });
  const before = await answers(ctx);
  closeCatalog(ctx);
  expect(existsSync(`${catalogPath(root)}-wal`)).toBe(false);
  expect(warnings).toEqual([]);
  return { root, ctx, warnings, before };
}

/** What list_projects, list_sessions and search_sessions answer (the tools' own runs, as every door calls them). */
async function answers(ctx: CoreContext) {
  return {
    projects: await listProjectsTool.run(ctx, {}),
    sessions: await listSessionsTool.run(ctx, listSessionsTool.input.parse({ project_key: TEST_PROJECT_KEY, limit: 50, sort: "session_ref", order: "asc" })),
    search: await searchSessionsTool.run(ctx, SEARCH),
  };
}

/** Files beside `file` whose name starts with it and a dot: what it was set aside as. */
async function setAside(file: string): Promise<string[]> {
  return (await fs.readdir(path.dirname(file))).filter((n) => n.startsWith(`${path.basename(file)}.corrupt-`) || n.startsWith(`${path.basename(file)}.readonly-`)).map((n) => path.join(path.dirname(file), n));
}

/**
 * Makes `target` read-only for this process, really: as root (who writes through modes) it is
 * made immutable with `chattr +i`, else its mode loses write bits. Returns the undo, or null when
 * neither works here (the file system or the container refuses): the test is then skipped.
 */
async function makeReadOnly(target: string): Promise<(() => Promise<void>) | null> {
  const dir = (await fs.stat(target)).isDirectory();
  let undo: () => Promise<void>;
  if (process.getuid?.() === 0) {
    try {
      execFileSync("chattr", ["+i", target], { stdio: "ignore" });
    } catch {
      return null;
    }
    undo = async () => void execFileSync("chattr", ["-i", target], { stdio: "ignore" });
  } else {
    await fs.chmod(target, dir ? 0o555 : 0o444);
    undo = () => fs.chmod(target, dir ? 0o755 : 0o644);
  }
  try {
    if (dir) await fs.writeFile(path.join(target, ".probe"), "");
    else await (await fs.open(target, "r+")).close();
  } catch {
    return undo;
  }
  await fs.rm(path.join(target, ".probe"), { force: true });
  await undo();
  return null;
}

describe("a broken catalog heals itself (issue 35, item 4)", () => {
  it("garbage over the head of a checkpointed catalog: it is set aside, rebuilt, and every tool answers as before", async () => {
    const { root, ctx, warnings, before } = await setup();
    const file = catalogPath(root);
    const fh = await fs.open(file, "r+");
    await fh.write(Buffer.alloc(4096, "garbage!"), 0, 4096, 0);
    await fh.close();
    expect(await answers(ctx)).toEqual(before);
    const aside = await setAside(file);
    expect(aside).toHaveLength(1);
    expect(warnings.filter((w) => w.includes(aside[0]!))).toHaveLength(1);
    expect(warnings.join("\n")).toMatch(/corrupt/);
    closeCatalog(ctx);
  });

  it("a catalog truncated to half its size: set aside, rebuilt, every tool answers as before", async () => {
    const { root, ctx, warnings, before } = await setup();
    const file = catalogPath(root);
    await fs.truncate(file, Math.floor((await fs.stat(file)).size / 2));
    expect(await answers(ctx)).toEqual(before);
    const aside = await setAside(file);
    expect(aside).toHaveLength(1);
    expect(warnings.some((w) => w.includes(aside[0]!))).toBe(true);
    closeCatalog(ctx);
  });

  it("a folder where the catalog file should be: it is set aside, and every tool answers as before", async () => {
    const { root, ctx, warnings, before } = await setup();
    const file = catalogPath(root);
    await fs.rm(file);
    await fs.mkdir(file);
    expect(await answers(ctx)).toEqual(before);
    const aside = await setAside(file);
    expect(aside).toHaveLength(1);
    expect(warnings.some((w) => w.includes(aside[0]!))).toBe(true);
    closeCatalog(ctx);
  });

  it("corruption met while the catalog is open (at a later query, not at open) is healed in the same call", async () => {
    const { root, ctx, warnings, before } = await setup();
    const file = catalogPath(root);
    const db = catalogDb(ctx);
    // Another connection writes (so this one's page cache is dropped at its next read), checkpoints, and then every page after the first is garbage.
    const other = new Database(file);
    other.prepare("UPDATE projects SET ord = ord").run();
    other.pragma("wal_checkpoint(TRUNCATE)");
    other.close();
    const size = (await fs.stat(file)).size;
    const pageSize = db.pragma("page_size", { simple: true }) as number;
    const fh = await fs.open(file, "r+");
    await fh.write(Buffer.alloc(size - pageSize, 0xa5), 0, size - pageSize, pageSize);
    await fh.close();
    expect(await answers(ctx)).toEqual(before);
    const aside = await setAside(file);
    expect(aside).toHaveLength(1);
    expect(warnings.some((w) => w.includes(aside[0]!) && /SQLITE_CORRUPT|SQLITE_NOTADB/.test(w))).toBe(true);
    closeCatalog(ctx);
  });

  it("handles faults at one place: a passing SQLITE_CORRUPT is rechecked on a new connection and spares the catalog; a lasting one sets it aside and the use runs on a new catalog; any other error is passed on", async () => {
    const { root, ctx, warnings } = await setup();
    // A fault as a statement raises it: on an open connection.
    const corrupt = () => (catalogDb(ctx), Object.assign(new Error("database disk image is malformed"), { code: "SQLITE_CORRUPT" }));
    const sessionRows = () => (catalogDb(ctx).prepare("SELECT count(*) AS n FROM sessions").get() as { n: number }).n;
    // Once (a passing state): the recheck on a new connection answers from the same catalog.
    let calls = 0;
    expect(await withCatalog(ctx, () => (++calls === 1 ? Promise.reject(corrupt()) : sessionRows()))).toBe(2);
    expect(calls).toBe(2);
    expect(await setAside(catalogPath(root))).toEqual([]);
    expect(warnings).toEqual([]);
    // Twice in a row: set aside, and the use runs again on a new, empty catalog (the next list fills it).
    calls = 0;
    expect(await withCatalog(ctx, () => (++calls <= 2 ? Promise.reject(corrupt()) : sessionRows()))).toBe(0);
    expect(calls).toBe(3);
    expect(await setAside(catalogPath(root))).toHaveLength(1);
    expect(warnings).toHaveLength(1);
    await expect(withCatalog(ctx, () => Promise.reject(Object.assign(new Error("EACCES: a transcript"), { code: "EACCES" })))).rejects.toThrow(/a transcript/);
    await expect(withCatalog(ctx, () => Promise.reject(Object.assign(new Error("locked"), { code: "SQLITE_BUSY" })))).rejects.toThrow(/locked/);
    expect(await setAside(catalogPath(root))).toHaveLength(1);
    closeCatalog(ctx);
  });

  it("a read-only catalog file: a catalog that can be written is used instead, with a warning naming it, and every tool answers as before", async ({ skip }) => {
    const { root, ctx, warnings, before } = await setup();
    const file = catalogPath(root);
    const undo = await makeReadOnly(file);
    if (!undo) return skip("no way to make a file read-only here");
    try {
      expect(await answers(ctx)).toEqual(before);
      // Listed twice more: the fallback serves later calls without a new warning.
      expect(await answers(ctx)).toEqual(before);
      expect(warnings.some((w) => w.includes(file))).toBe(true);
      expect(warnings.length).toBeLessThanOrEqual(2);
    } finally {
      closeCatalog(ctx);
      await undo();
    }
  });

  it("a read-only .casefile folder: the catalog is built elsewhere, with a warning naming it, and every tool answers as before", async ({ skip }) => {
    const { root, ctx, warnings, before } = await setup();
    const dir = path.join(root, CASEFILE_DIR);
    const undo = await makeReadOnly(dir);
    if (!undo) return skip("no way to make a folder read-only here");
    try {
      expect(await answers(ctx)).toEqual(before);
      expect(warnings.some((w) => w.includes(catalogPath(root)))).toBe(true);
    } finally {
      closeCatalog(ctx);
      await undo();
    }
  });

  it("no catalog file can be written anywhere (.casefile and the temp fallback read-only): one in memory serves, filled on this thread, and every tool answers as before", async ({ skip }) => {
    const { root, ctx, warnings, before } = await setup();
    const temp = path.join(os.tmpdir(), `casefile-catalog-${createHash("sha256").update(ctx.workspaceRoot).digest("hex").slice(0, 16)}`);
    await fs.mkdir(temp, { recursive: true });
    const undoTemp = await makeReadOnly(temp);
    const undoDir = undoTemp ? await makeReadOnly(path.join(root, CASEFILE_DIR)) : null;
    if (!undoTemp || !undoDir) {
      await undoTemp?.();
      return skip("no way to make a folder read-only here");
    }
    try {
      expect(await answers(ctx)).toEqual(before);
      expect(warnings.some((w) => w.includes(catalogPath(root)))).toBe(true);
      expect(warnings.some((w) => /in memory/.test(w))).toBe(true);
      // A long-running process's search: its background fill fills this process's catalog, not a worker's own.
      closeCatalog(ctx);
      const server = createCoreContext(root);
      const early = await searchSessionsTool.run(server, SEARCH);
      expect(early.status).toBe("indexing");
      await requestFullTextFill(root);
      expect(await searchSessionsTool.run(server, SEARCH)).toEqual(before.search);
    } finally {
      closeCatalog(ctx);
      await undoDir();
      await undoTemp();
    }
  });

  it("a corrupt line-index file: set aside with a warning naming it, and read_session_lines answers as before", async () => {
    // Long enough that its line index is persisted (a small file's is built again instead).
    const { root, ctx, warnings } = await setup(`${userLines(5)}${JSON.stringify({ type: "user", timestamp: "2026-05-12T01:00:00Z", message: { role: "user", content: "x".repeat(PERSISTED_INDEX_MIN_BYTES) } })}\n`);
    const input = { project_key: TEST_PROJECT_KEY, session_ref: "S0002", start_line: 2, end_line: 4, mode: "full" };
    const first = await readSessionLines(ctx, input);
    expect(first).toMatchObject({ status: "ok" });
    const lidx = lineIndexCachePath(workspaceIndexDir(ctx), path.join(await fs.realpath(projectDir(root, TEST_PROJECT_KEY)), "sessions", "claude-code", "s0002.jsonl"));
    const bytes = await fs.readFile(lidx);
    // Garbage over its head, then over its tail (a cut-short write): each is set aside and rebuilt.
    for (const broken of [Buffer.concat([Buffer.alloc(16, 0xff), bytes.subarray(16)]), bytes.subarray(0, Math.floor(bytes.length / 2))]) {
      await fs.writeFile(lidx, broken);
      clearLineIndexCache();
      warnings.length = 0;
      expect(await readSessionLines(ctx, input)).toEqual(first);
      const aside = await setAside(lidx);
      expect(aside.length).toBeGreaterThan(0);
      expect(warnings.some((w) => aside.some((a) => w.includes(a)))).toBe(true);
      await Promise.all(aside.map((a) => fs.rm(a)));
    }
    closeCatalog(ctx);
  });

  it("a corrupt block of stored compact records: set aside with a warning naming it, and read_session_lines (compact) answers as before", async () => {
    const { ctx, warnings } = await setup();
    const input = { project_key: TEST_PROJECT_KEY, session_ref: "S0002", start_line: 1, end_line: 5, mode: "compact" };
    const first = await readSessionLines(ctx, input);
    expect(first).toMatchObject({ status: "ok" });
    const index = workspaceIndexDir(ctx);
    const folder = (await fs.readdir(index)).find((n) => n.endsWith(".compact"))!;
    const block = path.join(index, folder, (await fs.readdir(path.join(index, folder))).find((n) => n.endsWith("-b0.json"))!);
    await fs.writeFile(block, (await fs.readFile(block, "utf8")).slice(0, 40));
    compactRecordCache.clear();
    expect(await readSessionLines(ctx, input)).toEqual(first);
    const aside = await setAside(block);
    expect(aside).toHaveLength(1);
    expect(warnings.some((w) => w.includes(aside[0]!))).toBe(true);
    closeCatalog(ctx);
  });
});
