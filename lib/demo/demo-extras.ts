/** The demo workspace's extras: a Codex rollout beside the Claude Code sessions, and demo evidence and synthesis written through the tools. */
import fs from "node:fs/promises";
import path from "node:path";

import type { CallInfo, CoreContext } from "@/lib/context";
import { codex, toJsonl } from "@/lib/sources/codex/rollout-builder";
import type { ToolResult } from "@/lib/tools/define-tool";
import { listProjects } from "@/lib/workspace/projects";

const CODEX_ID = "0199a000-demo-7000-8000-00000000c0de";

/**
 * Writes the demo's Codex rollout (`sessions/2026/11/21/rollout-…jsonl`) under `dir`, so the demo
 * shows a Codex session beside the Claude Code ones (issue 12, item 2). Two turns: a question
 * answered with an `exec_command` call and its output, then a follow-up. Returns the file path.
 */
export async function generateDemoCodexSources(dir: string): Promise<string> {
  const cwd = "/home/demo/billing-cli";
  const records = [
    codex.meta({ id: CODEX_ID, cwd, originator: "codex_cli_rs", cli_version: "0.60.0", git: { branch: "feature/invoices" } }, 0),
    codex.turnContext(1, cwd),
    codex.env(2, cwd),
    codex.user("Which tests cover invoice rounding? Run them.", 1000),
    codex.userEvent("Which tests cover invoice rounding? Run them.", 1001),
    codex.reasoning(2000),
    codex.call("exec_command", { cmd: "npm test -- rounding" }, 3000),
    codex.output("> npm test -- rounding\n\u001b[32m✓\u001b[39m rounds half up (3 ms)\n\u001b[32m✓\u001b[39m keeps cents exact (1 ms)\nTests: 2 passed", 9000, "call_exec_command"),
    codex.assistant("Two tests cover rounding (`rounding.test.ts`); both pass.", 10_000),
    codex.taskComplete(10_001),
    codex.turnContext(60_000, cwd),
    codex.user("Add a test for negative amounts.", 61_000),
    codex.userEvent("Add a test for negative amounts.", 61_001),
    codex.assistant("Added `rounds negative amounts toward zero` to rounding.test.ts.", 70_000),
    codex.taskComplete(70_001),
  ];
  const file = path.join(dir, "sessions", "2026", "11", "21", `rollout-2026-11-21T10-00-00-${CODEX_ID}.jsonl`);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, toJsonl(records));
  return file;
}

/** The registry's `callTool`: runs a tool by name with raw input through every registry check. */
export type DemoToolCaller = (ctx: CoreContext, name: string, input: unknown, call: CallInfo) => Promise<ToolResult>;

/**
 * Fills a freshly synced demo workspace with the reviewer's work the README shows (issue 12,
 * item 2): an evidence chain for acme-api S0001/T0001 and a synthesis item (an evidence gap) for docs-site, both
 * written through the tool registry like any agent would. Skips a project that already has them,
 * so it is safe on every start. Returns the tool statuses (for the start-up log and tests).
 * `callTool` is the registry's (lib/tools/registry `callTool`), passed in by the caller because
 * the registry sits above lib/demo.
 */
export async function seedDemoWork(ctx: CoreContext, callTool: DemoToolCaller): Promise<string[]> {
  const projects = await listProjects(ctx);
  const acme = projects.find((p) => p.project_label === "acme-api");
  const docs = projects.find((p) => p.project_label === "docs-site");
  const statuses: string[] = [];
  if (acme) {
    const chain = {
      turn_ref: "T0001",
      trigger: {
        type: "explicit_user_message",
        summary: "The user asked for pagination on /orders, with tests.",
        quoted_messages: [{ text: "Add pagination to the /orders endpoint and cover it with tests.", citations: [{ lines: "2-2" }] }],
        citations: [{ lines: "2-2" }],
      },
      agent_reactions: [{ summary: "The agent read the order handlers and ran the order tests.", citations: [{ lines: "4-9" }] }],
      outcomes: [{ category: "code_outcome", summary: "Pagination code was read and tested.", citations: [{ lines: "10-20" }] }],
      observed_checks: [],
      terminal_state: { type: "material_result", summary: "The agent reported the work done.", citations: [{ lines: "84-84" }] },
      materiality: "material",
    };
    const r = await callTool(ctx, "write_evidence", { project_key: acme.project_key, session_ref: "S0001", evidence_chain: chain }, { door: "cli", client: "demo" });
    statuses.push(`write_evidence: ${r.status}`);
  }
  if (docs) {
    const item = { work_item_ref: "W0001", kind: "evidence_gap_item", title: "No evidence yet for the getting-started rewrite", covered_turns: [{ session_ref: "S0001", turn_ref: "T0001" }], outcomes: [], terminal_states: [], limits: [], confidence: "medium" };
    const r = await callTool(ctx, "write_work_item", { project_key: docs.project_key, work_item: item }, { door: "cli", client: "demo" });
    statuses.push(`write_work_item: ${r.status}`);
  }
  return statuses;
}
