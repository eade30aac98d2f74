/** Codex project root, session id, exclusions and fork facts (contract §1.3–§1.8). */
import { describe, expect, it } from "vitest";

import { analyzeCodexLines } from "@/lib/sources/codex/analyze-core";
import { codex, toLines } from "@/lib/sources/codex/rollout-builder";

type Rec = Record<string, unknown>;
const analyse = (records: (Rec | string)[], fileStem = "rollout-x") => analyzeCodexLines(toLines(records), null, { fileStem });

describe("Codex project root and session id (contract §1.3, §1.4)", () => {
  it("uses the last session_meta cwd, else the first turn_context cwd", () => {
    const metaTwice = [codex.meta({ cwd: "/a" }), codex.meta({ cwd: "/b" }), codex.meta({ cwd: "  " }), codex.user("go", 1)];
    expect(analyse(metaTwice).projectRoot).toBe("/b");
    const contextOnly = [codex.meta({ cwd: null }), codex.turnContext(0, "/first"), codex.turnContext(0, "/second"), codex.user("go", 1)];
    expect(analyse(contextOnly).projectRoot).toBe("/first");
    expect(analyse([codex.user("go", 1)]).projectRoot).toBeNull();
  });

  it("source_session_id is the last non-blank session_meta id, else the filename stem", () => {
    expect(analyse([codex.meta({ id: "one" }), codex.meta({ id: "two" }), codex.meta({ id: "" }), codex.user("go", 1)]).sourceSessionId).toBe("two");
    expect(analyse([codex.meta({ id: null }), codex.user("go", 1)], "rollout-2026-stem").sourceSessionId).toBe("rollout-2026-stem");
  });

  it("falls back to payload.timestamp for session_meta only", () => {
    const meta = { type: "session_meta", timestamp: null, payload: { id: "s", timestamp: "2026-05-12T00:00:00Z" } };
    const analysis = analyse([meta, codex.user("go", 60_000)]);
    expect(analysis.untimestampedRecordCount).toBe(0);
    expect(analysis.firstEventAt).toBe("2026-05-12T00:00:00Z");
  });
});

describe("Codex exclusions (contract §1.8 steps 1–2)", () => {
  it.each([
    [{ thread_source: "subagent" }],
    [{ originator: "Claude Code" }],
    [{ source: { subagent: "review" } }],
    [{ source: { subagent: { thread_spawn: { parent_thread_id: "p" } } } }],
    [{ source: { subagent: {} } }],
  ])("excludes a child session %j", (payload) => {
    const analysis = analyse([codex.meta(payload), codex.user("go", 1)]);
    expect(analysis.subagentReason).toMatch(/subagent|Claude Code/);
  });

  it.each([[{ source: null }], [{ source: "cli" }], [{ source: "exec" }], [{ source: { other: "x" } }], [{ source: { subagent: null } }], [{ thread_source: "user" }]])(
    "keeps a root session %j",
    (payload) => {
      const analysis = analyse([codex.meta(payload), codex.user("go", 1)]);
      expect(analysis.subagentReason).toBeNull();
      expect(analysis.turns).toHaveLength(1);
    },
  );

  it("flags prompt-diary report sessions and collects legacy SDK sessions for the provenance check", () => {
    expect(analyse([codex.meta({ originator: "prompt_diary" })]).reportReason).toContain("prompt_diary");
    const sdk = analyse([codex.meta({ originator: "codex_python_sdk", cwd: "/r/work/2026-05-12" }, 5), codex.user("go", 6)]);
    expect(sdk.reportReason).toBeNull();
    expect(sdk.legacySdkCandidates).toEqual([{ cwd: "/r/work/2026-05-12", timestampMs: Date.parse("2026-05-12T01:00:00.005Z") }]);
  });
});

describe("Codex fork facts (contract §1.8 step 5)", () => {
  const body = [codex.user("a", 1), codex.assistant("x", 2), codex.user("b", 3)];

  it("a clean fork has a history with one fingerprint per trigger, off-window turns included", () => {
    const analysis = analyzeCodexLines(toLines([codex.meta({ id: "child", forked_from_id: "parent" }), ...body]), { startMs: 0, endMs: 1 }, { fileStem: "x" });
    expect(analysis.turns).toEqual([]);
    expect(analysis.fork.history?.parentId).toBe("parent");
    expect(analysis.fork.history?.turns.map((t) => t.startLine)).toEqual([2, 4]);
  });

  it.each([
    ["a malformed line", [codex.meta({ forked_from_id: "p" }), ...body, "{"]],
    ["an untimestamped trigger", [codex.meta({ forked_from_id: "p" }), ...body, { ...codex.user("c"), timestamp: "nope" }]],
    ["two session_meta records", [codex.meta({ forked_from_id: "p" }), codex.meta({ forked_from_id: "p" }), ...body]],
    ["a non-string parent id", [codex.meta({ forked_from_id: 42 }), ...body]],
    ["no session id", [codex.meta({ id: null, forked_from_id: "p" }), ...body]],
  ])("%s makes the fork unprovable", (_name, records) => {
    expect(analyse(records as Rec[]).fork.history).toBeNull();
  });

  it("fingerprints ignore key order and spacing but not values", () => {
    const a = analyse([codex.meta({ id: "c" }), '{"timestamp":"2026-05-12T01:00:00Z","type":"event_msg","payload":{"type":"user_message","message":"hé"}}']);
    const b = analyse([codex.meta({ id: "c" }), '{ "payload" : { "message" : "h\\u00e9", "type" : "user_message" }, "type" : "event_msg", "timestamp" : "2026-05-12T01:00:00Z" }']);
    const c = analyse([codex.meta({ id: "c" }), '{"timestamp":"2026-05-12T01:00:00Z","type":"event_msg","payload":{"type":"user_message","message":"he"}}']);
    expect(a.fork.history!.turns[0]!.fingerprint).toBe(b.fork.history!.turns[0]!.fingerprint);
    expect(a.fork.history!.turns[0]!.fingerprint).not.toBe(c.fork.history!.turns[0]!.fingerprint);
  });
});

describe("Codex legacy (pre-envelope) format", () => {
  const header = { id: "981d779b", timestamp: "2025-09-10T02:47:38.812Z", instructions: null, git: { branch: "main" } };
  const bare = (role: string, text: string) => ({ type: "message", role, content: [{ type: role === "user" ? "input_text" : "output_text", text }] });

  it("reads the bare header as session_meta and bare items as response items dated at the session start", () => {
    const records = [
      header,
      { record_type: "state" },
      bare("user", "<environment_context>\n  <cwd>/home/dev/proj</cwd>\n</environment_context>"),
      bare("user", "write a viewer"),
      { type: "function_call", name: "shell", arguments: "{}", call_id: "c" },
      bare("assistant", "done"),
      { record_type: "state" },
      bare("user", "thanks"),
    ];
    const analysis = analyse(records);
    expect(analysis.format).toBe("legacy");
    expect(analysis.sourceSessionId).toBe("981d779b");
    expect(analysis.projectRoot).toBe("/home/dev/proj");
    expect(analysis.turns.map((t) => [t.turn_start_line, t.turn_end_line])).toEqual([[4, 7], [8, 8]]);
    expect(analysis.triggers.every((t) => t.timestampMs === Date.parse(header.timestamp))).toBe(true);
    expect(analysis.fork.history).toBeNull();
    expect(analysis.firstUserMessage).toBe("write a viewer");
  });
});
