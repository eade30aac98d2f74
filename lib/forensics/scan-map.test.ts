/** Tests of the forensics scan's per-line mapping (the Codex skim). */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { LineMapper, type MappedLines } from "@/lib/forensics/scan-map";
import { buildLineIndex } from "@/lib/jsonl/line-index";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

/** The line starts of `bytes` (contract §1.6), by the line index of a file holding them. */
async function lineStarts(bytes: Buffer): Promise<Float64Array> {
  const file = path.join(await makeTempDir("scan-map-"), "s.jsonl");
  writeFileSync(file, bytes);
  return (await buildLineIndex(file)).starts;
}

/** The facts of every line of `bytes` (line starts `starts`) mapped in chunks of about `chunk` bytes, as arrays (comparable). */
function mapped(bytes: Buffer, starts: Float64Array, source: string, skim: boolean, chunk = 4096): unknown[] {
  const mapper = new LineMapper(source, { skim });
  const parts: MappedLines[] = [];
  let first = 0;
  while (first < starts.length) {
    let last = first;
    while (last + 1 < starts.length && starts[last + 1]! - starts[first]! < chunk) last++;
    const base = starts[first]!;
    const stop = last + 1 < starts.length ? starts[last + 1]! : bytes.length;
    mapper.mapRange(bytes.subarray(base, stop), base, starts, first, last, bytes.length);
    parts.push(mapper.take());
    first = last + 1;
  }
  return parts.map((p) => JSON.parse(JSON.stringify(p, (_k, v: unknown) => (ArrayBuffer.isView(v) ? Array.from(v as Uint8Array) : v))));
}

const line = (o: unknown) => JSON.stringify(o);
const ts = (s: number) => new Date(Date.UTC(2026, 4, 11, 8, 0, s)).toISOString();
const META = line({ timestamp: ts(0), type: "session_meta", payload: { id: "019e0000-0000-7000-8000-000000000001", cwd: "/w", originator: "codex-tui", timestamp: ts(0) } });
const LEGACY = line({ id: "981d779b-eff6-469e-bb55-b423fe135b79", timestamp: ts(0), instructions: "" });

/** Rollout lines of every kind the scan reads, with odd values, odd timestamps and odd JSON. */
function oddLines(): string[] {
  const out: string[] = [];
  for (let i = 0; i < 40; i++) {
    const t = ts(i);
    out.push(line({ timestamp: t, type: "turn_context", payload: { cwd: "/w", approval_policy: "never", user_instructions: `do it\n"well" ${"i".repeat(i * 50)}` } }));
    out.push(line({ timestamp: t, type: "event_msg", payload: { type: "user_message", message: `prompt ${i}` } }));
    out.push(line({ timestamp: t, type: "response_item", payload: { type: "message", role: "user", content: [{ type: "input_text", text: `prompt ${i}` }] } }));
    out.push(line({ timestamp: t, type: "response_item", payload: { type: "reasoning", summary: [{ type: "summary_text", text: "think" }], encrypted_content: "gAAA".repeat(i) } }));
    out.push(line({ timestamp: t, type: "response_item", payload: { type: "function_call", name: "shell", call_id: `c${i}`, arguments: line({ command: ["bash", "-lc", "npm test"] }) } }));
    out.push(line({ timestamp: t, type: "response_item", payload: { type: "function_call_output", call_id: `c${i}`, output: line({ output: "ok", metadata: { exit_code: i % 3 } }) } }));
    out.push(line({ timestamp: t, type: "event_msg", payload: { type: "exec_command_end", call_id: `c${i}`, stdout: "x\n".repeat(i), exit_code: 0 } }));
    out.push(line({ timestamp: t, type: "event_msg", payload: { type: "token_count", info: { total_token_usage: { input_tokens: 10 * i, cached_input_tokens: 8 * i, output_tokens: 5 * i, total_tokens: 15 * i }, last_token_usage: { input_tokens: 10, cached_input_tokens: i % 2 ? 4 : "4", output_tokens: 5 } }, rate_limits: { primary: { used_percent: 1.5 } } } }));
    out.push(line({ timestamp: t, type: "event_msg", payload: { type: "agent_message", message: i % 2 ? "  " : "done" } }));
    out.push(line({ timestamp: t, type: "response_item", payload: { type: "message", role: "assistant", content: [{ type: "output_text", text: "done" }] } }));
  }
  out.push(
    line({ timestamp: ts(50), type: "event_msg", payload: { type: "token_count", info: null } }),
    line({ timestamp: ts(50), type: "event_msg", payload: { type: "token_count", info: { total_token_usage: [1, 2], last_token_usage: { input_tokens: -1.5e3, cached_input_tokens: null } } } }),
    line({ timestamp: ts(51), type: "event_msg", payload: { type: "error", message: "boom" } }),
    line({ timestamp: ts(51), type: "event_msg", payload: { type: "stream_error", message: "reconnecting" } }),
    line({ timestamp: ts(52), type: "event_msg", payload: { type: "turn_aborted", reason: "interrupted" } }),
    line({ timestamp: ts(52), type: "event_msg", payload: { type: "context_compacted" } }),
    line({ timestamp: ts(53), type: "compacted", payload: { message: "summary" } }),
    line({ timestamp: ts(53), type: "compacted", payload: "not an object" }),
    line({ timestamp: ts(54), type: "response_item", payload: { type: "ghost_snapshot", ghost_commit: { id: "g" } } }),
    line({ timestamp: ts(54), type: "response_item", payload: { type: "web_search_call", action: { type: "search", query: "q" } } }),
    line({ timestamp: ts(55), type: "response_item" }),
    line({ timestamp: ts(55), type: "event_msg", payload: [1] }),
    line({ type: "turn_context", payload: { cwd: "/w" } }),
    line({ timestamp: 1778486400000, type: "turn_context", payload: { cwd: "/w" } }),
    line({ timestamp: "2026-05-11T08:00:00+02:00", type: "turn_context", payload: { cwd: "/w" } }),
    line({ timestamp: "2026-02-30T08:00:00.000Z", type: "turn_context", payload: { cwd: "/w" } }),
    line({ timestamp: "yesterday", type: "event_msg", payload: { type: "task_complete" } }),
    `{"timestamp":"${ts(56)}","type":"event_msg","type":"response_item","payload":{"type":"reasoning","role":"assistant","type":"message","content":[]}}`,
    `{"timestamp":"${ts(56)}","type":"event_msg","payload":{"type":"token_count"},"payload":{"type":"agent_message","message":"hi"}}`,
    `{"timestamp":"${ts(56)}","\\u0074ype":"event_msg","payload":{"type":"task_started"}}`,
    `{"timestamp":"${ts(57)}","type":"event_msg","payload":{"__proto__":{"type":"user_message"},"type":"task_started"}}`,
    ` { "timestamp" : "${ts(57)}" , "type" : "event_msg" , "payload" : { "type" : "task_complete" } } `,
    `{"timestamp":"${ts(58)}","type":"event_msg","payload":{"type":"task_complete","x":"\\q"}}`,
    `{"timestamp":"${ts(58)}","type":"event_msg","payload":{"type":"task_complete"}`,
    "",
    "   ",
    "[1,2]",
    line({ timestamp: ts(59), type: "session_meta", payload: { id: "019e0000-0000-7000-8000-000000000002", timestamp: ts(1) } }),
    line({ type: "session_meta", payload: { id: "019e0000-0000-7000-8000-000000000003", timestamp: ts(2) } }),
  );
  return out;
}

describe("the Codex scan skims lines after an envelope-format first object", () => {
  it("maps every line as parsing it whole does, in chunks of any size", async () => {
    for (const first of [META, LEGACY, "{broken", ""]) {
      const bytes = Buffer.from(`${[first, ...oddLines()].join("\n")}\r\n`);
      const starts = await lineStarts(bytes);
      for (const chunk of [1, 700, 1 << 20]) {
        expect(mapped(bytes, starts, "codex", true, chunk), `${first.slice(0, 30)} ${chunk}`).toEqual(mapped(bytes, starts, "codex", false, chunk));
      }
    }
  });

  it("parses whole only the kinds whose text it reads", async () => {
    const { skimLine } = await import("@/lib/sources/common/skim");
    const { CODEX_SCAN_FIELDS, codexScanSuffices } = await import("@/lib/sources/codex/skim-plan");
    const settled = (text: string): boolean => {
      const bytes = Buffer.from(text);
      const r = skimLine(bytes, 0, bytes.length, CODEX_SCAN_FIELDS);
      return r !== null && typeof r === "object" && "record" in r && codexScanSuffices(r.record);
    };
    const lines = oddLines();
    expect(settled(lines[0]!)).toBe(true); // turn_context
    expect(settled(lines[3]!)).toBe(true); // reasoning
    expect(settled(lines[6]!)).toBe(true); // exec_command_end
    expect(settled(lines[7]!)).toBe(true); // token_count
    expect(settled(lines[1]!)).toBe(false); // user_message
    expect(settled(lines[4]!)).toBe(false); // function_call
    expect(settled(lines[5]!)).toBe(false); // function_call_output
    expect(settled(lines[8]!)).toBe(false); // agent_message
    expect(settled(META)).toBe(false);
  });
});

describe.skipIf(!HAS_SHARED)(`the Codex scan on every Codex corpus rollout${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  it("maps every line as parsing it whole does", async () => {
    const corpus = path.join(SHARED_DIR, "corpus", "codex");
    const files = readdirSync(corpus, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".jsonl"));
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const file of files) {
      const bytes = readFileSync(path.join(corpus, file));
      const starts = (await buildLineIndex(path.join(corpus, file))).starts;
      expect(mapped(bytes, starts, "codex", true, 1 << 16), file).toEqual(mapped(bytes, starts, "codex", false, 1 << 16));
    }
  });
});
