import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { bundledPricing } from "@/lib/usage/pricing";
import { usageOfFiles } from "@/lib/usage/session-usage";

import { freshMessageIds } from "./real-shaped";

const TRANSCRIPT = path.join(SHARED_DIR, "corpus/claude-code/phantom-reads/session-examples/2.0.58-bad/3020c1e3-a661-4879-8854-35eb023fd030.jsonl");

describe.skipIf(!HAS_SHARED)(`real-shaped session: each copy of a transcript has its own message ids (issue 29) ${HAS_SHARED ? "" : SKIP_SHARED_MESSAGE}`, () => {
  it("counts every copy's messages (the chart had 374 points for 81 rounds), and keeps the rest of each line byte for byte", async () => {
    const original = await fs.readFile(TRANSCRIPT);
    const dir = await makeTempDir("real-shaped-ids-");
    const file = path.join(dir, "s.jsonl");
    await fs.writeFile(file, Buffer.concat([0, 1, 2].map((copy) => freshMessageIds(original, copy))));
    const once = await usageOfFiles("claude-code", [{ kind: "main", path: TRANSCRIPT }], bundledPricing());
    const thrice = await usageOfFiles("claude-code", [{ kind: "main", path: file }], bundledPricing());
    expect(once.lines.line.length).toBeGreaterThan(0);
    expect(thrice.lines.line.length).toBe(3 * once.lines.line.length);
    expect(thrice.main.output_tokens).toBe(3 * once.main.output_tokens);

    expect(freshMessageIds(original, 0)).toBe(original);
    const copy = freshMessageIds(original, 7).toString("utf8").split("\n");
    const lines = original.toString("utf8").split("\n");
    expect(copy).toHaveLength(lines.length);
    for (let i = 0; i < lines.length; i++) expect(copy[i]).toBe(lines[i]!.replaceAll('"id":"msg_', '"id":"msg_c7_'));
    expect(copy.some((l, i) => l !== lines[i])).toBe(true);
  });
});
