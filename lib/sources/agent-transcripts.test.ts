import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { readAgentTranscript } from "@/lib/sources/agent-transcripts";
import { makeTempDir } from "@/lib/testing/shared";

const EVENTS = path.resolve("lib/sources/copilot-cli/__fixtures__/session-state/5f0c2a7e-3b1d-4c8e-9a6f-1d2e3f4a5b6c/events.jsonl");

describe("readAgentTranscript", () => {
  it("reads a session once while its file is unchanged, even one larger than the cache", async () => {
    const dir = await makeTempDir();
    const lines = (await fs.readFile(EVENTS, "utf8")).split("\n").filter((l) => l !== "");
    // ~10 MB: its transcript counts more than the 32 MB the cache keeps.
    const big = path.join(dir, "big.jsonl");
    const body = lines.slice(1).join("\n");
    await fs.writeFile(big, [lines[0], ...Array.from({ length: Math.ceil(10e6 / body.length) }, () => body)].join("\n") + "\n");
    const small = path.join(dir, "small.jsonl");
    await fs.copyFile(EVENTS, small);
    const first = await readAgentTranscript("copilot-cli", big);
    expect(first!.records.length).toBeGreaterThan(10_000);
    expect(await readAgentTranscript("copilot-cli", big)).toBe(first);
    // Another session read meanwhile: the small one stays cached, the large one is read again.
    const smallFirst = await readAgentTranscript("copilot-cli", small);
    expect(await readAgentTranscript("copilot-cli", big)).not.toBe(first);
    expect(await readAgentTranscript("copilot-cli", small)).toBe(smallFirst);
    // A change to the file is read.
    await fs.appendFile(small, `${lines[1]}\n`);
    expect((await readAgentTranscript("copilot-cli", small))!.records.length).toBe(smallFirst!.records.length + 1);
  });
});
