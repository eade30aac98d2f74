import { existsSync, readdirSync } from "node:fs";
import { mkdir, open, readFile, rename, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { writeFileAtomic } from "@/lib/fs/atomic-write";

/** Size of the shared benchmark session file: 1 GiB. */
export const BIG_SESSION_BYTES = 1 << 30;

/** Where benchmark artefacts live (gitignored). */
export const BENCH_TMP_DIR = fileURLToPath(new URL("./.tmp/", import.meta.url));

const CORPUS_DIR = path.resolve(fileURLToPath(new URL("../", import.meta.url)), "../shared/corpus");

type BigSessionMeta = { targetBytes: number; size: number; source: "corpus" | "generated" };

/**
 * Returns the path of a JSONL file of at least `targetBytes` bytes under bench/.tmp/, made by
 * appending the ../shared/corpus `.jsonl` files over and over (generated lines when the corpus
 * is absent). Every appended file ends with "\n", so the result is whole lines. An existing file
 * is reused when its size still equals the size recorded in its `.meta.json` sidecar. Writes are
 * streamed one source file at a time (peak memory ≈ the largest corpus file) into a per-process
 * `.partial` file that is renamed when complete.
 * @throws the fs error when bench/.tmp cannot be written.
 */
export async function ensureBigSession(targetBytes: number): Promise<string> {
  const target = path.join(BENCH_TMP_DIR, `big-session-${targetBytes}.jsonl`);
  const metaPath = `${target}.meta.json`;
  const existing = await readMeta(metaPath);
  if (existing && existing.targetBytes === targetBytes && (await sizeOf(target)) === existing.size) return target;

  await mkdir(BENCH_TMP_DIR, { recursive: true });
  const partial = `${target}.${process.pid}.partial`;
  const sources = corpusFiles();
  const handle = await open(partial, "w");
  let size = 0;
  try {
    for (let round = 0; size < targetBytes; round++) {
      for (const piece of sources.length > 0 ? sources : [null]) {
        const bytes = piece === null ? generatedBlock(round) : withFinalNewline(await readFile(piece));
        await handle.write(bytes, 0, bytes.length, size);
        size += bytes.length;
        if (size >= targetBytes) break;
      }
    }
  } finally {
    await handle.close();
  }
  await rename(partial, target);
  const meta: BigSessionMeta = { targetBytes, size, source: sources.length > 0 ? "corpus" : "generated" };
  await writeFileAtomic(metaPath, `${JSON.stringify(meta)}\n`);
  return target;
}

function corpusFiles(): string[] {
  if (!existsSync(CORPUS_DIR)) return [];
  return readdirSync(CORPUS_DIR, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".jsonl"))
    .sort()
    .map((name) => path.join(CORPUS_DIR, name));
}

function withFinalNewline(bytes: Buffer): Buffer {
  return bytes.length === 0 || bytes[bytes.length - 1] === 0x0a ? bytes : Buffer.concat([bytes, Buffer.from("\n")]);
}

/** About 4 MB of transcript-like JSONL lines (1-6 KB each), deterministic per round. */
function generatedBlock(round: number): Buffer {
  const lines: string[] = [];
  for (let i = 0; i < 1500; i++) {
    const text = `Round ${round} line ${i}: naïve “quoted” text — `.repeat(20 + ((i * 37) % 120));
    lines.push(JSON.stringify({ type: i % 2 ? "assistant" : "user", uuid: `${round}-${i}`, message: { role: "user", content: text } }));
  }
  return Buffer.from(`${lines.join("\n")}\n`);
}

async function sizeOf(file: string): Promise<number | null> {
  try {
    return (await stat(file)).size;
  } catch {
    return null;
  }
}

async function readMeta(metaPath: string): Promise<BigSessionMeta | null> {
  try {
    return JSON.parse(await readFile(metaPath, "utf8")) as BigSessionMeta;
  } catch {
    return null;
  }
}
