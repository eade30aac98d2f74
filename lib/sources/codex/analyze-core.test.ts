/** Codex triggers, echo merge and turn extent (contract §1.7). */
import { describe, expect, it } from "vitest";

import { dayWindow } from "@/lib/sources/common/window";
import { analyzeCodexLines } from "@/lib/sources/codex/analyze-core";
import { codex, toLines } from "@/lib/sources/codex/rollout-builder";

type Rec = Record<string, unknown>;
const spans = (records: (Rec | string)[], window: { startMs: number; endMs: number } | null = null) =>
  analyzeCodexLines(toLines(records), window).turns.map((t) => [t.turn_start_line, t.turn_end_line]);

describe("Codex triggers (contract §1.7)", () => {
  it("every user message or user_message event is a trigger: [first, second] → (1,1),(2,2)", () => {
    expect(spans([codex.user("first", 0), codex.user("second", 1000)])).toEqual([[1, 1], [2, 2]]);
    expect(spans([codex.userEvent("first", 0), codex.userEvent("second", 1000)])).toEqual([[1, 1], [2, 2]]);
  });

  it.each([
    "<environment_context>\n<cwd>/x</cwd>",
    "# AGENTS.md instructions for /x",
    "<turn_aborted>",
    "<subagent_notification>{}",
    "<INSTRUCTIONS>do this",
    "A previous agent produced the plan below. Continue.",
    "  \n\t<environment_context>", // left-stripped first
  ])("source context %j is never a trigger, as response or as event", (text) => {
    expect(spans([codex.user(text, 0), codex.userEvent(text, 0), codex.assistant("ok", 10)])).toEqual([]);
  });

  it("prefixes are case-sensitive and must start the text", () => {
    expect(spans([codex.user("<ENVIRONMENT_CONTEXT>", 0)])).toEqual([[1, 1]]);
    expect(spans([codex.user("see <environment_context>", 0)])).toEqual([[1, 1]]);
  });

  it("the first non-blank text part decides; a message with no text part is a trigger", () => {
    const parts = (content: unknown) => ({ timestamp: "2026-05-12T01:00:00Z", type: "response_item", payload: { type: "message", role: "user", content } });
    expect(spans([parts([{ type: "input_text", text: "  " }, { type: "input_text", text: "<environment_context>" }])])).toEqual([]);
    expect(spans([parts([{ type: "input_image", image_url: "data:" }, { type: "input_text", text: "look" }])])).toEqual([[1, 1]]);
    expect(spans([parts([])])).toEqual([[1, 1]]);
    expect(spans([parts("not a list")])).toEqual([[1, 1]]);
    // A blank or non-string user_message event reads as "" and is a trigger too.
    expect(spans([{ timestamp: "2026-05-12T01:00:00Z", type: "event_msg", payload: { type: "user_message", message: 3 } }])).toEqual([[1, 1]]);
  });

  it.each([
    ["developer message", codex.developer("hi")],
    ["assistant message", codex.assistant("hi")],
    ["agent_message", codex.agentEvent("hi")],
    ["reasoning", codex.reasoning()],
    ["function call", codex.call("shell", { command: ["ls"] })],
    ["token_count", codex.tokens({ input: 1, output: 1 }, 1)],
    ["no payload", { timestamp: "2026-05-12T01:00:00Z", type: "response_item" }],
  ])("%s is never a trigger", (_name, record) => {
    expect(spans([record])).toEqual([]);
  });

  it("a trigger without a valid aware timestamp starts no turn and bounds nothing", () => {
    const naive = { ...codex.userEvent("later"), timestamp: "2026-05-12T02:00:00" };
    const analysis = analyzeCodexLines(toLines([codex.user("first", 0), codex.assistant("a", 10), naive, codex.assistant("b", 20)]), null);
    expect(analysis.turns.map((t) => [t.turn_start_line, t.turn_end_line])).toEqual([[1, 4]]);
    expect(analysis.untimestampedTriggerCount).toBe(1);
  });
});

describe("Codex echo merge (contract §1.7)", () => {
  it("[resp same, event same, event same] → (1,2),(3,3)", () => {
    expect(spans([codex.user("same", 0), codex.userEvent("same", 0), codex.userEvent("same", 0)])).toEqual([[1, 2], [3, 3]]);
  });

  it("[resp same, assistant, event same] → (1,2),(3,3)", () => {
    expect(spans([codex.user("same", 0), codex.assistant("a", 0), codex.userEvent("same", 0)])).toEqual([[1, 2], [3, 3]]);
  });

  it("merges at +100 ms and splits at +101 ms", () => {
    expect(spans([codex.user("same", 0), codex.userEvent("same", 100)])).toEqual([[1, 2]]);
    expect(spans([codex.user("same", 0), codex.userEvent("same", 101)])).toEqual([[1, 1], [2, 2]]);
  });

  it.each([
    ["event then response", [codex.userEvent("same", 0), codex.user("same", 0)]],
    ["two events", [codex.userEvent("same", 0), codex.userEvent("same", 0)]],
    ["two responses", [codex.user("same", 0), codex.user("same", 0)]],
    ["different text", [codex.user("same", 0), codex.userEvent("same!", 0)]],
    ["echo earlier than its response", [codex.user("same", 1), codex.userEvent("same", 0)]],
    ["a non-text part in the response", [{ ...codex.user("same", 0), payload: { type: "message", role: "user", content: [{ type: "input_text", text: "same" }, { type: "input_image", image_url: "x" }] } }, codex.userEvent("same", 0)]],
  ])("%s stay separate", (_name, records) => {
    expect(spans(records as Rec[])).toEqual([[1, 1], [2, 2]]);
  });

  it("an intervening record keeps the repeat a new turn", () => {
    expect(spans([codex.user("same", 0), codex.tokens(null, 0, 1), codex.userEvent("same", 2)])).toEqual([[1, 2], [3, 3]]);
  });
});

describe("Codex turn extent (contract §1.7)", () => {
  it("steps back over pre-trigger scaffolding: T0001 = 2..3, T0002 = 8..9", () => {
    const records = [codex.meta(), codex.user("do it", 0), codex.assistant("done", 1), codex.turnContext(2), codex.taskStarted(3), codex.developer("dev", 4), codex.env(5), codex.user("next", 6), codex.assistant("ok", 7)];
    expect(spans(records)).toEqual([[2, 3], [8, 9]]);
  });

  it.each([
    ["<subagent_notification>", "<subagent_notification>{\"agent\":\"x\"}</subagent_notification>"],
    ["<turn_aborted>", "<turn_aborted>interrupted</turn_aborted>"],
  ])("a %s reaction stays in the previous turn; the next setup is excluded", (_name, reaction) => {
    const records = [codex.user("Perform the task", 0), codex.assistant("working", 1), codex.user(reaction, 2), codex.userEvent(reaction, 2), codex.taskStarted(3), codex.env(4), codex.turnContext(5), codex.user("Review the result", 6)];
    expect(spans(records)).toEqual([[1, 4], [8, 8]]);
  });

  it("task_complete is not scaffolding; a malformed line stops the walk back", () => {
    expect(spans([codex.user("a", 0), codex.taskComplete(1), codex.taskStarted(2), codex.user("b", 3)])).toEqual([[1, 2], [4, 4]]);
    expect(spans([codex.user("a", 0), "{not json", codex.turnContext(2), codex.user("b", 3)])).toEqual([[1, 2], [4, 4]]);
  });

  it("the last turn runs to the last line, trailing scaffolding included", () => {
    expect(spans([codex.user("a", 0), codex.assistant("x", 1), codex.turnContext(2), codex.taskStarted(3)])).toEqual([[1, 4]]);
  });

  it("a reset-plan bootstrap is never a turn; later human follow-ups are: (4,6),(7,7)", () => {
    const plan = "A previous agent produced the plan below.\n1. step";
    const records = [codex.meta(), codex.user(plan, 0), codex.userEvent(plan, 0), codex.user("Continue", 10), codex.userEvent("Continue", 10), codex.assistant("ok", 20), codex.userEvent("Approved, go ahead", 30)];
    expect(spans(records)).toEqual([[4, 6], [7, 7]]);
  });

  it("includes turns by trigger time; reactions after midnight stay; an off-window trigger still bounds", () => {
    const day = dayWindow("2026-05-12", "Asia/Shanghai"); // ROLLOUT_T0 is 09:00 local
    const hours = (h: number) => h * 3_600_000;
    const records = [codex.user("late", hours(14.9)), codex.assistant("after midnight", hours(15.2)), codex.user("tomorrow", hours(16)), codex.assistant("x", hours(16.1))];
    expect(spans(records, day)).toEqual([[1, 2]]);
    expect(spans(records, dayWindow("2026-05-13", "Asia/Shanghai"))).toEqual([[3, 4]]);
    expect(analyzeCodexLines(toLines(records), day).turns.map((t) => t.turn_ref)).toEqual(["T0001"]);
  });
});
