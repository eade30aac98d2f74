/** About, Details and Analysis agree on the corpus sessions' counts. */
import path from "node:path";

import { beforeAll, describe, expect, it } from "vitest";

import { sessionAuditEvents } from "@/lib/ledger/session-audit";
import type { AnalyzeSessionResult } from "@/lib/analysis/schema";
import { createCoreContext, type CoreContext } from "@/lib/context";
import { sessionOverview } from "@/lib/forensics/overview";
import type { SessionOverviewResult } from "@/lib/forensics/schema";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { readLineRange } from "@/lib/jsonl/line-index";
import { claudeUserText } from "@/lib/sources/claude-code/classify-record";
import { userTextKind } from "@/lib/sources/claude-code/user-text";
import { loadWorkspace } from "@/lib/workspace/load";
import { getSession, getWorkspaceLineIndex } from "@/lib/workspace/sessions";
import { prepareWorkspace } from "@/lib/workspace/prepare";
import { callTool } from "@/lib/tools/registry";

type Ref = { project_key: string; session_ref: string; source: string; label: string };

/** Issue 28: one count per concept, the same in the `about`, the Details (diagnostics) and the Analysis tab. */
describe.skipIf(!HAS_SHARED)(`one count per concept on every corpus session${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  let ctx: CoreContext;
  const refs: Ref[] = [];

  beforeAll(async () => {
    ctx = createCoreContext(await makeTempDir(), { now: () => new Date("2026-11-28T00:00:00Z") });
    await prepareWorkspace(ctx, { claudeRoots: [path.join(SHARED_DIR, "corpus", "claude-code")], codexRoots: [path.join(SHARED_DIR, "corpus", "codex")] });
    for (const p of (await loadWorkspace(ctx)).projects) for (const r of p.rows) refs.push({ project_key: p.projectKey, session_ref: r.session_ref, source: r.source, label: `${p.projectKey}/${r.source_session_id}` });
  }, 120_000);

  it("about, Details and Analysis agree on files read, reads failed, commands run, turns, errors and tokens", async () => {
    expect(refs.length).toBe(19);
    for (const ref of refs) {
      const o = (await sessionOverview(ctx, { project_key: ref.project_key, session_ref: ref.session_ref }, sessionAuditEvents)) as SessionOverviewResult;
      const { counts, about } = o.summary;
      const d = o.diagnostics;
      const read = counts.files_read;
      expect(read.main + read.subagents, ref.label).toBe(read.total);
      // Details (diagnostics by family) are the same numbers.
      expect(d.tools.by_family.read?.called ?? 0, ref.label).toBe(read.total);
      expect(d.tools.by_family.read?.failed ?? 0, ref.label).toBe(counts.reads_failed);
      expect(d.tools.by_family.run?.called ?? 0, ref.label).toBe(counts.commands_run.total);
      expect(counts.turns, ref.label).toBe(o.summary.turn_count);
      expect(counts.errors, ref.label).toBe(Object.values(o.summary.error_counts).reduce((a, b) => a + b, 0));
      expect(counts.tool_calls, ref.label).toBe(d.tools.total_calls);
      // The about names exactly these numbers.
      if (read.total > 0) expect(about, ref.label).toContain(`read ${read.total} file${read.total === 1 ? "" : "s"}${counts.reads_failed > 0 ? ` (${counts.reads_failed} failed)` : ""}`);
      else expect(about, ref.label).not.toMatch(/ read \d+ file/);
      if (counts.commands_run.total > 0) expect(about, ref.label).toContain(`ran ${counts.commands_run.total} command${counts.commands_run.total === 1 ? "" : "s"}`);
      else expect(about, ref.label).not.toMatch(/ ran \d+ command/);
      if (ref.source === "claude-code") {
        // The first real prompt is quoted: a slash command only when no turn starts with a prompt (issue 36 item 5).
        const session = await getSession(ctx, ref.project_key, ref.session_ref);
        const index = await getWorkspaceLineIndex(ctx, session.filePath);
        let prompted = false;
        for (const t of session.row.turns) {
          const [line] = await readLineRange(session.filePath, index, t.turn_start_line, t.turn_start_line);
          prompted ||= userTextKind(claudeUserText(JSON.parse(line!.text))) === "prompt";
        }
        if (prompted) expect(about, ref.label).not.toMatch(/^User asked: "\/[\w:-]+/);
        else expect(about, ref.label).toMatch(/^User asked: "\/[\w:-]+/);
        // The Analysis tab's Read table lists the main transcript's Read calls: part of the main files read.
        const analysis = (await callTool(ctx, "analyze_session", { project_key: ref.project_key, session_ref: ref.session_ref }, { door: "cli" })) as AnalyzeSessionResult;
        expect(analysis.status, ref.label).toBe("ok");
        if (Array.isArray(analysis.reads)) expect(analysis.reads.length, ref.label).toBeLessThanOrEqual(read.main);
        // The token chart draws lib/usage's requests: its output sums to the main transcript's output tokens.
        expect(analysis.token_points.reduce((n, p) => n + p.output, 0), ref.label).toBe(d.tokens.main.output_tokens);
      }
    }
  }, 300_000);
});
