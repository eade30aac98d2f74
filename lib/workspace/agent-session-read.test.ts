/** Prepare's read of one agent session (issue 38): a byte-copy chat is written or copied by the kernel, with the bytes and mode a written file has. */
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import type { FoundSession } from "@/lib/sources/common/agent-source";
import { makeTempDir } from "@/lib/testing/shared";
import { readAgentSession } from "@/lib/workspace/agent-session-read";

const FIXTURES = path.resolve("lib/sources/gemini-cli/__fixtures__");
const WHOLE = { firstLine: 1, lastLine: 1, startByte: 0, endByte: 0 };

/** A Gemini chat found at `file` (the fields the read uses). */
function found(file: string): FoundSession {
  return { source: "gemini-cli", sourceSessionId: "s", sourcePath: file, part: null, fileName: path.basename(file), projectRoot: null, stamp: "" };
}

describe("readAgentSession's workspace file", () => {
  // A small chat is written from the bytes read, one of 1 MiB or more copied by the kernel: the same file either way.
  it.each([
    ["written", 0],
    ["copied by the kernel", 1 << 20],
  ])("is the JSONL chat's bytes, with a written file's mode, though from a read-only source (%s)", async (_how, padding) => {
    const dir = await makeTempDir();
    const source = path.join(dir, "chat.jsonl");
    // Each line followed by `\n`: the file is the workspace file byte for byte.
    const fixture = await fs.readFile(path.join(FIXTURES, "replay.jsonl"), "utf8");
    const pad = padding === 0 ? "" : `${JSON.stringify({ id: "pad", type: "gemini", timestamp: "2026-04-10T09:00:00Z", content: "x".repeat(padding) })}\n`;
    await fs.writeFile(source, `${fixture.endsWith("\n") ? fixture : `${fixture}\n`}${pad}`);
    await fs.chmod(source, 0o444);
    const copied = path.join(dir, "copied.jsonl");
    const read = await readAgentSession(source, WHOLE, { found: found(source), window: null, staged: copied });
    const bytes = await fs.readFile(source);
    expect(bytes.length >= padding).toBe(true);
    expect(read.skip).toBeNull();
    expect(read.bytes).toBe(bytes.length);
    expect((await fs.readFile(copied)).equals(bytes)).toBe(true);
    // The mode `writeFileSync` gives a new file, as for a chat whose lines are written.
    const written = path.join(dir, "written");
    await fs.writeFile(written, "");
    expect((await fs.stat(copied)).mode).toBe((await fs.stat(written)).mode);
  });

  it("is the legacy chat's lines, written", async () => {
    const dir = await makeTempDir();
    const staged = path.join(dir, "legacy.jsonl");
    const read = await readAgentSession("", WHOLE, { found: found(path.join(FIXTURES, "legacy.json")), window: null, staged });
    const text = await fs.readFile(staged, "utf8");
    expect(read.bytes).toBe(Buffer.byteLength(text));
    expect(text.split("\n").slice(0, -1).map((l) => typeof JSON.parse(l))).toEqual(Array(read.lineCount).fill("object"));
  });
});
