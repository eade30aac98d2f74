/** Tests of per-turn usage: counted again when the index's turn spans change. */
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { loadWorkspace } from "@/lib/workspace/load";
import { prepareWorkspace } from "@/lib/workspace/prepare";
import { getSession } from "@/lib/workspace/sessions";
import { getTurnUsage } from "@/lib/workspace/turn-usage";

describe.skipIf(!HAS_SHARED)(`turn usage is keyed by the file and its turn spans ${HAS_SHARED ? "" : SKIP_SHARED_MESSAGE}`, () => {
  it("counts again when the index's turn spans change while the file does not", async () => {
    const root = await makeTempDir("casefile-usage-stamp-");
    const ctx = createCoreContext(root, { now: () => new Date("2026-11-26T10:00:00Z") });
    await prepareWorkspace(ctx, { claudeRoots: [path.join(SHARED_DIR, "corpus", "claude-code")] });
    const project = (await loadWorkspace(ctx)).projects.find((p) => p.rows.some((r) => r.source === "claude-code" && r.turns.length >= 3))!;
    const row = project.rows.find((r) => r.source === "claude-code" && r.turns.length >= 3)!;
    const before = await getTurnUsage(ctx, await getSession(ctx, project.projectKey, row.session_ref));
    expect(before.map((u) => u.turn_ref)).toEqual(row.turns.map((t) => t.turn_ref));

    // The last two turns become one (the file is untouched: same size and mtime).
    const indexPath = path.join(project.dir, "sessions.index.jsonl");
    const lines = (await fs.readFile(indexPath, "utf8")).split("\n");
    const at = lines.findIndex((l) => l.trim() !== "" && (JSON.parse(l) as { session_ref: string }).session_ref === row.session_ref);
    const stored = JSON.parse(lines[at]!) as { turns: { turn_ref: string; turn_start_line: number; turn_end_line: number }[] };
    const last = stored.turns.pop()!;
    stored.turns.at(-1)!.turn_end_line = last.turn_end_line;
    lines[at] = JSON.stringify(stored);
    await fs.writeFile(indexPath, lines.join("\n"));

    const merged = (await loadWorkspace(ctx)).projects.find((p) => p.projectKey === project.projectKey)!.rows.find((r) => r.session_ref === row.session_ref)!;
    expect(merged.turns.length).toBe(row.turns.length - 1);
    const after = await getTurnUsage(ctx, await getSession(ctx, project.projectKey, row.session_ref));
    expect(after.map((u) => u.turn_ref)).toEqual(merged.turns.map((t) => t.turn_ref));
    // The merged turn counts the output tokens of both (when both were known).
    const a = before.at(-2)!.output_tokens;
    const b = before.at(-1)!.output_tokens;
    if (a !== null && b !== null) expect(after.at(-1)!.output_tokens).toBe(a + b);
  });
});
