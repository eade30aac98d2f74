import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { physicalLines } from "@/lib/jsonl/text-lines";
import { copilotSource } from "@/lib/sources/copilot-cli/source";
import { HAS_SHARED, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

// The captured Copilot CLI 1.0.65 session (agent-formats.md §7): one prompt, one shutdown.
const HOME = path.join(SHARED_DIR, "corpus", "agents-home");
const SESSION_ID = "87ecd1bd-04f8-4b58-b837-a583e194be8f";

describe("Copilot CLI corpus session", () => {
  if (!HAS_SHARED) console.warn(SKIP_SHARED_MESSAGE);

  it.skipIf(!HAS_SHARED)("is found under the default root of the corpus home", async () => {
    const roots = copilotSource.defaultRoots(HOME, {} as NodeJS.ProcessEnv);
    expect(roots).toEqual([path.join(HOME, ".copilot", "session-state")]);
    const { sessions, warnings } = await copilotSource.discover(roots[0]!);
    expect(warnings).toEqual([]);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({
      source: "copilot-cli",
      sourceSessionId: SESSION_ID,
      sourcePath: path.join(roots[0]!, SESSION_ID, "events.jsonl"),
      part: null,
      fileName: `${SESSION_ID}.jsonl`,
      projectRoot: "/home/ngsupb/repos/twitech/devchain",
    });
  });

  it.skipIf(!HAS_SHARED)("exports the file's 8 physical lines and reads them: 1 turn, no tool calls, one run's usage", async () => {
    const [found] = (await copilotSource.discover(path.join(HOME, ".copilot"))).sessions;
    const { lines, warnings, bytes } = await copilotSource.exportLines(found!);
    expect(warnings).toEqual([]);
    const file = await fs.readFile(found!.sourcePath);
    expect(lines).toEqual(physicalLines(file.toString("utf8")));
    expect(lines).toHaveLength(8);
    // Its bytes are its lines each ended by a newline: prepare writes them as read.
    expect(bytes).toEqual(file);
    expect(Buffer.from(`${lines.join("\n")}\n`)).toEqual(file);

    const t = copilotSource.parseLines(lines, found!.fileName);
    expect(t.warnings).toEqual([]);
    expect(t.records.map((r) => r.type)).toEqual([
      "session.start",
      "session.model_change",
      "system.message",
      "user.message",
      "assistant.turn_start",
      "assistant.message",
      "assistant.turn_end",
      "session.shutdown",
    ]);
    expect(t.turns).toEqual([{ turn_start_line: 4, turn_end_line: 8 }]);
    expect(t.records.flatMap((r) => r.calls)).toHaveLength(0);
    expect(t.records.flatMap((r) => r.results)).toHaveLength(0);
    expect(t.startedAt).toBe("2026-06-27T16:20:57.566Z");
    expect(t.endedAt).toBe("2026-06-27T16:21:11.825Z");
    expect(t.records[3]!.headline).toBe("User: Reply with exactly the two characters: ok");
    // model_change says `auto`; the assistant message names the model that answered.
    expect(t.records[1]!.events).toEqual([{ kind: "model_change", detail: "auto" }]);
    expect(t.records[5]).toMatchObject({ role: "assistant", model: "gpt-5-mini", text: "ok", headline: "Assistant: ok" });
    // modelMetrics gpt-5-mini: inputTokens 11637, cache 0/0, outputTokens 79 of which reasoningTokens 64.
    expect(t.records.filter((r) => r.usage.length > 0).map((r) => r.line)).toEqual([8]);
    expect(t.records[7]!.usage).toEqual([
      { model: "gpt-5-mini", input: 11_637, output: 15, cacheRead: 0, cacheWrite: 0, reasoning: 64, costUsd: null, approximate: false },
    ]);
    expect(t.records[7]!.events).toEqual([{ kind: "shutdown", detail: "routine; 0 premium requests" }]);
  });
});
