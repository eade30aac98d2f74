import { describe, expect, it } from "vitest";

import { compactAgentBody } from "@/lib/session-reader/compact-agent";
import { emptyRecord, turnsFromTriggers, type AgentRecord, type AgentTranscript } from "@/lib/sources/common/agent-source";
import { toolInputText } from "@/lib/sources/common/compact-fields";
import { seededRandom } from "@/lib/testing/random";

/** The rule of a message's visible text as first written (lines split, every told text split into words): what the faster reading must equal. */
function referenceVisibleText(record: AgentRecord): string | null {
  let text = record.text;
  if (record.calls.length === 0 && record.results.length === 0) return text.trim() === "" ? null : text;
  const names = new Set([...record.calls.map((c) => c.name), ...record.results.map((r) => r.name).filter((n): n is string => n !== null)]);
  const lines = text.split("\n");
  const cut = lines.findIndex((l) => names.has(l));
  if (cut !== -1) text = lines.slice(0, cut).join("\n");
  if (text.trim() === "") return null;
  const words = (t: string) => t.split(/[\s"{},:[\]]+/).filter((w) => w !== "");
  const shown = new Set<string>(names);
  for (const t of [...record.calls.map((call) => toolInputText(call.input)), ...record.results.map((r) => r.output)]) for (const w of words(t)) shown.add(w);
  return words(text).every((w) => shown.has(w)) ? null : text;
}

const transcriptOf = (records: AgentRecord[]): AgentTranscript => ({ records, turns: turnsFromTriggers(records), startedAt: null, endedAt: null, title: null, absent: [], warnings: [] });

describe("an agent message's visible text (compact text_preview)", () => {
  it("equals the split-every-word rule on generated messages (seeded)", () => {
    const vocabulary = ["edit", "a.py", "Applied", "to", "run", "npm", "test", "ok", "fail", "x", "tests", "éte", "\u00a0", "{", '"', ":", "[", "]"];
    let dropped = 0;
    for (let seed = 1; seed <= 3000; seed++) {
      const r = seededRandom(seed);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
      const phrase = (n: number) => Array.from({ length: n }, () => pick(vocabulary)).join(pick([" ", "  ", "\t", "\n", ", "]));
      const names = ["edit", "run_shell_command", "read_file"];
      const record = emptyRecord(1, "gemini");
      record.role = "assistant";
      for (let k = Math.floor(r() * 3); k > 0; k--) {
        const name = pick(names);
        record.calls.push({ id: `c${k}`, name, input: r() < 0.3 ? phrase(3) : { command: phrase(2 + Math.floor(r() * 4)), path: "a.py" }, files: [] });
      }
      for (let k = Math.floor(r() * 3); k > 0; k--) record.results.push({ id: null, name: r() < 0.2 ? null : pick(names), output: phrase(Math.floor(r() * 12)), isError: false });
      const parts = [phrase(1 + Math.floor(r() * 6))];
      if (r() < 0.5) parts.push(pick([...names, "edit ", ""]), phrase(3));
      if (r() < 0.2) parts.unshift(pick(names));
      record.text = parts.join("\n");
      const expected = referenceVisibleText(record);
      if (expected === null) dropped++;
      expect(compactAgentBody(transcriptOf([record]), 1)!.text_preview).toBe(expected);
    }
    // Both answers are met often.
    expect(dropped).toBeGreaterThan(300);
    expect(dropped).toBeLessThan(2700);
  });

  it("equals it when a message's words lie deep in a large tool output (the words are then looked up split)", () => {
    const record = emptyRecord(1, "gemini");
    record.role = "assistant";
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`);
    record.calls.push({ id: "c1", name: "read_file", input: { path: "big.txt" }, files: ["big.txt"] });
    const deep = `${"filler ".repeat(40_000)}${words.join(" ")}`;
    record.results.push({ id: "c1", name: "read_file", output: deep, isError: false });
    record.text = words.join(" ");
    expect(compactAgentBody(transcriptOf([record]), 1)!.text_preview).toBe(referenceVisibleText(record));
    expect(referenceVisibleText(record)).toBeNull();
    record.results[0]!.output = `${deep.slice(0, -1)}`;
    expect(compactAgentBody(transcriptOf([record]), 1)!.text_preview).toBe(record.text);
    expect(referenceVisibleText(record)).toBe(record.text);
  });
});
