/** Tests of list_session_turns and get_evidence_card paging. */
import { describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { generateDemoSources } from "@/lib/demo/generate-demo";
import { buildTwoTurnWorkspace, PROJECT } from "@/lib/evidence/__fixtures__/chains";
import { makeTempDir } from "@/lib/testing/shared";
import { callTool } from "@/lib/tools/registry";
import { prepareWorkspace } from "@/lib/workspace/prepare";
import { getSessionDetail } from "@/lib/workspace/projects";

const UI = { door: "ui", client: "test" } as const;

describe("list_session_turns (issue 13: the session page reads its turns page by page)", () => {
  it("pages by ordinal and by line, stops at to_line, and adds usage on request", async () => {
    const sources = await makeTempDir();
    await generateDemoSources(sources);
    const ctx = createCoreContext(await makeTempDir());
    const summary = await prepareWorkspace(ctx, { claudeRoots: [sources] });
    const acme = summary.projects[0]!.project_key;
    const detail = await getSessionDetail(ctx, acme, "S0001");
    const turns = detail.turns;
    expect(turns).toHaveLength(3);
    expect(detail.turn_count).toBe(3);
    const call = (input: Record<string, unknown>) => callTool(ctx, "list_session_turns", { project_key: acme, session_ref: "S0001", ...input }, UI);

    const all = await call({});
    expect(all).toEqual({ status: "ok", project_key: acme, session_ref: "S0001", total_turns: 3, offset: 0, turns: turns.map((t, ordinal) => ({ ...t, ordinal })) });
    expect(await call({ offset: 1, limit: 1 })).toMatchObject({ offset: 1, turns: [{ ...turns[1], ordinal: 1 }] });
    expect(await call({ offset: 7 })).toMatchObject({ total_turns: 3, offset: 3, turns: [] });

    // A line inside T0002, or its first line, starts the page at T0002; T0001's last line at T0001.
    const t2 = turns[1]!;
    expect(await call({ line: t2.turn_start_line + 1, limit: 1 })).toMatchObject({ offset: 1, turns: [{ turn_ref: t2.turn_ref }] });
    expect(await call({ line: t2.turn_start_line, limit: 1 })).toMatchObject({ offset: 1 });
    expect(await call({ line: turns[0]!.turn_end_line })).toMatchObject({ offset: 0 });
    expect(await call({ line: 1, to_line: t2.turn_start_line })).toMatchObject({ offset: 0, turns: [{ ordinal: 0 }, { ordinal: 1 }] });
    expect(await call({ line: 1, to_line: t2.turn_start_line - 1 })).toMatchObject({ turns: [{ ordinal: 0 }] });
    expect(await call({ line: turns[2]!.turn_end_line + 1 })).toMatchObject({ offset: 3, turns: [] });

    const withUsage = await call({ usage: "true" });
    expect(withUsage.status === "ok" && (withUsage.turns as { output_tokens: number | null }[]).map((t) => t.output_tokens)).toEqual(detail.turn_usage.map((u) => u.output_tokens));

    // The page's own detail ships no turns.
    const light = await getSessionDetail(ctx, acme, "S0001", undefined, { turns: false });
    expect(light).toMatchObject({ turn_count: 3, turns: [], turn_usage: [] });

    expect(await call({ limit: 0 })).toMatchObject({ status: "invalid", errors: [{ field: "limit" }] });
    await expect(call({ session_ref: "S0404" })).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("get_evidence_card with a page of turns (issue 13)", () => {
  it("keeps only the page's turns, counts every turn", async () => {
    const ctx = createCoreContext(await buildTwoTurnWorkspace());
    const full = await callTool(ctx, "get_evidence_card", { project_key: PROJECT, session_ref: "S0001" }, UI);
    expect(full).toMatchObject({ turns_offset: 0, turn_count: 2, turns_with_chain: 0, other_chain_indexes: [] });
    expect((full.turns as unknown[]).length).toBe(2);
    const page = await callTool(ctx, "get_evidence_card", { project_key: PROJECT, session_ref: "S0001", turns_offset: 1, turns_limit: 1 }, UI);
    expect(page).toMatchObject({ turns_offset: 1, turn_count: 2, turns: [{ turn_ref: "T0002" }] });
  });
});
