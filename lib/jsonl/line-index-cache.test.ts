/** Tests of the persisted line index: its file format, reuse and adoption by prepare. */
import { createHash } from "node:crypto";
import { appendFile, mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adoptLineIndex, buildLineIndex, clearLineIndexCache, getLineIndex, LINE_INDEX_MEMORY_BYTES, PERSISTED_INDEX_MIN_BYTES } from "@/lib/jsonl/line-index";
import type { LineIndex } from "@/lib/jsonl/line-index";
import { decodeLineIndexFile, encodeLineIndexFile, lineIndexCachePath } from "@/lib/jsonl/line-index-file";

let root: string;
let caseNo = 0;
let file: string;
let cacheDir: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "line-index-cache-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});
beforeEach(async () => {
  clearLineIndexCache();
  const caseDir = path.join(root, `case-${caseNo++}`);
  cacheDir = path.join(caseDir, "cache");
  file = path.join(caseDir, "session.jsonl");
  await writeFile(path.join(root, ".keep"), "");
  await mkdir(caseDir, { recursive: true });
  await writeFile(file, '{"a":1}\n{"b":2}\n{"c":3}\n');
});

/** A first line long enough that the file's index is persisted (files under PERSISTED_INDEX_MIN_BYTES get none). */
const LONG_LINE = `{"a":"${"x".repeat(PERSISTED_INDEX_MIN_BYTES)}"}\n`;
const L = LONG_LINE.length;
const writeLarge = () => writeFile(file, `${LONG_LINE}{"b":2}\n{"c":3}\n`);

const plain = (index: LineIndex) => ({
  size: index.size,
  mtimeMs: index.mtimeMs,
  lineCount: index.lineCount,
  starts: Array.from(index.starts),
});

async function expectFresh(index: LineIndex): Promise<void> {
  expect(plain(index)).toEqual(plain(await buildLineIndex(file)));
}

describe("getLineIndex persistence", () => {
  it("persists to <sha256 of the absolute path>.lidx and loads it in a fresh process cache", async () => {
    await writeLarge();
    await expectFresh(await getLineIndex(file, cacheDir));
    const cacheFile = path.join(cacheDir, `${createHash("sha256").update(path.resolve(file)).digest("hex")}.lidx`);
    expect(await readdir(cacheDir)).toEqual([path.basename(cacheFile)]);
    expect(lineIndexCachePath(cacheDir, path.resolve(file))).toBe(cacheFile);

    // Tamper with a still well-formed offset: only an index loaded from disk can return it.
    const stored = decodeLineIndexFile(await readFile(cacheFile), path.resolve(file))!;
    const tampered = Float64Array.from(stored.starts);
    tampered[1] = 9;
    await writeFile(cacheFile, encodeLineIndexFile(path.resolve(file), { ...stored, starts: tampered }));
    const written = (await stat(cacheFile)).mtimeMs;

    clearLineIndexCache();
    const loaded = await getLineIndex(file, cacheDir);
    expect(Array.from(loaded.starts)).toEqual([0, 9, L + 8]);
    expect((await stat(cacheFile)).mtimeMs).toBe(written);
  });

  it("returns the same in-process object while the file is unchanged", async () => {
    const first = await getLineIndex(file, null);
    expect(await getLineIndex(file, null)).toBe(first);
    expect(await getLineIndex(path.relative(process.cwd(), file), null)).toBe(first);
  });

  it("shares one build between concurrent callers", async () => {
    const [a, b] = await Promise.all([getLineIndex(file, cacheDir), getLineIndex(file, cacheDir)]);
    expect(a).toBe(b);
  });

  it("invalidates on an mtime change with the same size", async () => {
    const first = await getLineIndex(file, cacheDir);
    await writeFile(file, '{"a":1}\n{"b":2}\n{"c"\n3}\n');
    await utimes(file, new Date(), new Date(first.mtimeMs + 5000));
    const viaMemory = await getLineIndex(file, cacheDir);
    await expectFresh(viaMemory);
    expect(Array.from(viaMemory.starts)).toEqual([0, 8, 16, 21]);
    await writeFile(file, '{"a"\n1}\n{"b":2}\n{"c":3}\n');
    await utimes(file, new Date(), new Date(first.mtimeMs + 9000));
    clearLineIndexCache();
    const viaDisk = await getLineIndex(file, cacheDir);
    await expectFresh(viaDisk);
    expect(Array.from(viaDisk.starts)).toEqual([0, 5, 8, 16]);
  });

  it("extends a grown file from the persisted index and rebuilds a shrunk one", async () => {
    await writeLarge();
    await getLineIndex(file, cacheDir);
    await appendFile(file, '{"d":4}\n');
    clearLineIndexCache();
    const grown = await getLineIndex(file, cacheDir);
    expect(grown).toMatchObject({ lineCount: 4, scannedFromByte: L + 8 });
    await expectFresh(grown);
    clearLineIndexCache();
    expect(plain(await getLineIndex(file, cacheDir))).toEqual(plain(grown));

    await writeFile(file, '{"a":1}\n');
    clearLineIndexCache();
    const shrunk = await getLineIndex(file, cacheDir);
    expect(shrunk.lineCount).toBe(1);
    await expectFresh(shrunk);
  });

  it("extends a grown file from the in-process cache without cacheDir", async () => {
    await getLineIndex(file, null);
    await appendFile(file, '{"d":4}\n{"e"');
    const grown = await getLineIndex(file, null);
    expect(grown).toMatchObject({ lineCount: 5, scannedFromByte: 16 });
    await expectFresh(grown);
  });

  it("persists no index of a file under PERSISTED_INDEX_MIN_BYTES, and builds it again from the file", async () => {
    const first = await getLineIndex(file, cacheDir);
    expect(await readdir(cacheDir).catch(() => [])).toEqual([]);
    clearLineIndexCache();
    const again = await getLineIndex(file, cacheDir);
    expect(again).not.toBe(first);
    expect(plain(again)).toEqual(plain(first));
    await expectFresh(again);
  });

  it("ignores and replaces corrupt, truncated or foreign cache files", async () => {
    await writeLarge();
    const cacheFile = lineIndexCachePath(cacheDir, path.resolve(file));
    const good = encodeLineIndexFile(path.resolve(file), await buildLineIndex(file));
    const foreign = encodeLineIndexFile("/elsewhere.jsonl", await buildLineIndex(file));
    for (const corrupt of [Buffer.from("not an index"), good.subarray(0, good.length - 3), foreign, Buffer.alloc(0)]) {
      await mkdir(cacheDir, { recursive: true });
      await writeFile(cacheFile, corrupt);
      clearLineIndexCache();
      await expectFresh(await getLineIndex(file, cacheDir));
      expect(decodeLineIndexFile(await readFile(cacheFile), path.resolve(file))).not.toBeNull();
    }
  });

  it("still answers when the cache directory cannot be written", async () => {
    const blocked = path.join(root, ".keep");
    await expectFresh(await getLineIndex(file, blocked));
  });

  it("keeps line indexes in memory by their bytes, not by file count (issue 13 §4)", async () => {
    const first = await getLineIndex(file, null);
    // Far more small files than the old 32-file limit: every one still fits.
    for (let i = 0; i < 64; i++) {
      const other = path.join(path.dirname(file), `other-${i}.jsonl`);
      await writeFile(other, `${i}\n`);
      await getLineIndex(other, null);
    }
    expect(await getLineIndex(file, null)).toBe(first);
    // Two indexes of 60 % of the budget each (8 bytes a line, adopted as prepare adopts its
    // analysis pass's index): the second pushes out the first and every small one.
    const lines = Math.ceil((0.6 * LINE_INDEX_MEMORY_BYTES) / 8);
    const huge = async (name: string): Promise<{ path: string; index: LineIndex }> => {
      const f = path.join(path.dirname(file), name);
      await writeFile(f, "{}\n");
      const st = await stat(f);
      return { path: f, index: await adoptLineIndex(f, null, { size: st.size, mtimeMs: st.mtimeMs, lineCount: lines, starts: new Float64Array(lines + 1) }) };
    };
    const a = await huge("big-a.jsonl");
    expect(await getLineIndex(a.path, null)).toBe(a.index);
    await huge("big-b.jsonl");
    expect(await getLineIndex(a.path, null)).not.toBe(a.index);
    expect(await getLineIndex(file, null)).not.toBe(first);
  });

  it("throws AppError not_found for a missing file", async () => {
    await expect(getLineIndex(path.join(root, "missing.jsonl"), cacheDir)).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("line index file format", () => {
  it("round-trips, also from an unaligned buffer", async () => {
    const index = await buildLineIndex(file);
    const bytes = encodeLineIndexFile("/x.jsonl", index);
    const unaligned = Buffer.alloc(bytes.length + 3).subarray(3);
    bytes.copy(unaligned);
    for (const candidate of [bytes, unaligned]) {
      expect(plain(decodeLineIndexFile(candidate, "/x.jsonl")!)).toEqual(plain(index));
    }
  });

  it("rejects offsets that do not increase", async () => {
    const index = await buildLineIndex(file);
    const starts = Float64Array.from([0, 8, 8]);
    expect(decodeLineIndexFile(encodeLineIndexFile("/x.jsonl", { ...index, starts }), "/x.jsonl")).toBeNull();
  });
});

describe("adoptLineIndex (prepare's byte copy takes the index its analysis built, issue 13)", () => {
  it("adopts the source's index for a copy with the same size and mtime, persisted for the next process", async () => {
    const copy = path.join(path.dirname(file), "copy.jsonl");
    await writeFile(copy, await readFile(file));
    const st = await stat(file);
    await utimes(copy, st.atimeMs / 1000, st.mtimeMs / 1000);
    const source = await buildLineIndex(file);
    const adopted = await adoptLineIndex(copy, cacheDir, source);
    expect(adopted.starts).toBe(source.starts); // not rebuilt
    expect(plain(adopted)).toEqual(plain(await buildLineIndex(copy)));
    clearLineIndexCache();
    expect(plain(await getLineIndex(copy, cacheDir))).toEqual(plain(adopted));
  });

  it("rebuilds instead when the copy's size or mtime differs from the index", async () => {
    const copy = path.join(path.dirname(file), "copy.jsonl");
    await writeFile(copy, '{"a":1}\n{"b":2}\n{"c":3}\n{"d":4}\n');
    const grown = await adoptLineIndex(copy, cacheDir, await buildLineIndex(file));
    expect(plain(grown)).toEqual(plain(await buildLineIndex(copy)));
    await writeFile(copy, await readFile(file));
    await utimes(copy, 1_000_000, 1_000_000);
    clearLineIndexCache();
    const touched = await adoptLineIndex(copy, cacheDir, await buildLineIndex(file));
    expect(plain(touched)).toEqual(plain(await buildLineIndex(copy)));
  });
});
