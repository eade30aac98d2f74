/** Tests of skimLine against JSON.parse: grammar, cut strings, the tape walk, repeated tails. */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { claudeFacts } from "@/lib/sources/claude-code/record-facts";
import type { RecordFacts } from "@/lib/sources/common/record-facts";
import { BLANK, CUT_MARK, skimLine, skimTuning, type ObjectPlan } from "@/lib/sources/common/skim";
import { SCAN_FIELDS, TURN_FIELDS } from "@/lib/sources/claude-code/skim-plans";
import { CODEX_ENVELOPE, CODEX_SCAN_FIELDS } from "@/lib/sources/codex/skim-plan";
import { parseJsonObject } from "@/lib/sources/common/json-object";
import { HAS_SHARED, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { seededRandom } from "@/lib/testing/random";
import { scanMemoryBuffer } from "@/lib/jsonl/json-scan";

/** Facts the scan gets from the skim: null when the skim leaves the line to JSON.parse. */
function skimmed(text: string): RecordFacts | "blank" | null {
  const b = Buffer.from(`xx${text}\n{"type":"user"}`, "utf8");
  const r = skimLine(b, 2, 2 + Buffer.byteLength(text), SCAN_FIELDS);
  if (r === BLANK) return "blank";
  return r === null ? null : claudeFacts(r.record, r.timestampMs);
}

/** Facts from JSON.parse of the whole line (the reference); null for a malformed line. */
function parsed(text: string): RecordFacts | null {
  const record = parseJsonObject(text);
  return record === null ? null : claudeFacts(record);
}

/** A cut user text stands for the whole one when it is a prefix of it. */
function sameFacts(got: RecordFacts, want: RecordFacts): boolean {
  if (got.userText !== null && want.userText !== null && got.userText.includes(CUT_MARK)) {
    const prefix = got.userText.slice(0, got.userText.indexOf(CUT_MARK));
    if (!want.userText.startsWith(prefix)) return false;
    return JSON.stringify({ ...got, userText: null }) === JSON.stringify({ ...want, userText: null });
  }
  return JSON.stringify(got) === JSON.stringify(want);
}

const assistant = {
  type: "assistant",
  timestamp: "2026-01-11T09:53:28.293Z",
  message: {
    id: "msg_1",
    role: "assistant",
    content: [
      { type: "text", text: "hello" },
      { type: "tool_use", id: "tu_1", name: "Bash", input: { command: "cat x.txt", description: "d" } },
      { type: "tool_use", id: "tu_2", name: "Task", input: { subagent_type: "Explore", prompt: "p".repeat(2000) } },
    ],
    usage: { input_tokens: 3, output_tokens: 5, cache_read_input_tokens: 7, cache_creation_input_tokens: 11, cache_creation: { ephemeral_5m_input_tokens: 1 } },
  },
  toolUseResult: { structuredPatch: [{ lines: ["-a", "+b"] }] },
};

describe("skimLine", () => {
  it("gives the facts JSON.parse and claudeFacts give", () => {
    const lines = [
      JSON.stringify(assistant),
      JSON.stringify({ type: "user", timestamp: "2026-01-11T09:53:23.575+02:00", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "tu_1", is_error: true, content: [{ type: "text", text: "x".repeat(3000) }] }] } }),
      JSON.stringify({ type: "user", timestamp: "2026-02-30T09:53:23.575Z", message: { role: "user", content: "  [Request interrupted by user]" } }),
      JSON.stringify({ type: "user", timestamp: "2026-01-31T23:59:59.999Z", message: { role: "user", content: `${" ".repeat(600)}hi` } }),
      JSON.stringify({ type: "system", subtype: "api_error", content: "boom", timestamp: "2026-01-11T09:53:23Z" }),
      JSON.stringify({ type: "progress", data: { deep: [[[{ a: [1, -2.5e-3, true, false, null, "s\\\"q"] }]]] }, timestamp: "x" }),
      JSON.stringify({ type: "summary", summary: "s", leafUuid: "u" }),
      ` { "type" : "assistant" , "message" : { "content" : "text \\u00e9\\n" , "role" : "assistant" } , "isApiErrorMessage" : true } `,
      `{"type":"user","type":"assistant","message":{"role":"assistant","content":[]},"message":{"role":"assistant","content":"again"}}`,
      `{"type":"assistant","message":{"id":"m","usage":{"input_tokens":1e3,"output_tokens":-0,"input_tokens":2}}}`,
    ];
    for (const text of lines) {
      const got = skimmed(text);
      const want = parsed(text);
      expect(got, text.slice(0, 120)).not.toBeNull();
      expect(sameFacts(got as RecordFacts, want!), text.slice(0, 120)).toBe(true);
    }
  });

  it("cuts long text only when its prefix decides blank and prefix tests", () => {
    const long = parsed(JSON.stringify({ type: "user", message: { role: "user", content: "word ".repeat(400) } }))!;
    const got = skimmed(JSON.stringify({ type: "user", message: { role: "user", content: "word ".repeat(400) } })) as RecordFacts;
    expect(got.userText).toContain(CUT_MARK);
    expect(long.userText!.startsWith(got.userText!.slice(0, got.userText!.indexOf(CUT_MARK)))).toBe(true);
    const spaced = skimmed(JSON.stringify({ type: "user", message: { role: "user", content: `${" ".repeat(700)}x` } })) as RecordFacts;
    expect(spaced.userText).toBe(`${" ".repeat(700)}x`);
  });

  it("leaves to JSON.parse every line that is not a valid JSON object, or that it cannot settle", () => {
    const bad = [
      `{"type":"user","message":{"role":"user","content":"abc`,
      `{"type":"user",}`,
      `{"type":"progress","data":{"a":tru}}`,
      `{"type":"progress","data":{"a":01}}`,
      `{"type":"progress","data":{"a":1.}}`,
      `{"type":"progress","data":{"a":[1 2]}}`,
      `{"type":"progress","data":{"a" 1}}`,
      `{"type":"progress"}{"type":"progress"}`,
      `{"type":"progress","data":{"a":1}`,
      `["type"]`,
      `"text"`,
      `{"t\\u0079pe":"user"}`,
      `{"type":"us\u0001er"}`,
      `{"type":"user","data":"\\x"}`.replace("data", "message"),
      `\ufeff{"type":"user"}`,
    ];
    for (const text of bad) expect(skimmed(text), text).toBeNull();
    expect(skimmed("  \t ")).toBe("blank");
  });
});


describe("skimLine validates string contents as JSON.parse does", () => {
  const code = 'const x = "a\\b";\n\tif (y) {\n  return \'é\';\n}\n'.repeat(12);
  const short = `{"type":"progress","data":{"output":"ab","n":[1,2]}}`;
  const long = JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: code }] }, toolUseResult: { stdout: code, file: { content: `${"x".repeat(70)}\u00e9\/${code}` } } });

  it("rejects a raw control byte or a bad escape anywhere in a skipped string, short or long", () => {
    const bad = [
      short.replace('"ab"', '"a\u0001b"'),
      short.replace('"ab"', '"a\\xb"'),
      short.replace('"ab"', '"a\\u12G4"'),
      short.replace('"ab"', '"a\\u12"'),
      long.replace("x".repeat(70), `${"x".repeat(69)}\t`),
      long.replace("x".repeat(70), `${"x".repeat(69)}\u001f`),
      long.replace("x".repeat(70), `${"x".repeat(69)}\\q`),
      `${long.slice(0, -20)}\u0000${long.slice(-19)}`,
    ];
    for (const text of bad) {
      expect(() => JSON.parse(text), text.slice(0, 80)).toThrow();
      expect(skimmed(text), text.slice(0, 80)).toBeNull();
    }
    expect(skimmed(short)).not.toBeNull();
    expect(skimmed(long)).not.toBeNull();
  });

  it("agrees with JSON.parse on 4,000 one-byte mutations of a short and a long line", () => {
    const next = seededRandom(13);
    const alphabet = [0x00, 0x01, 0x09, 0x0a, 0x1f, 0x20, 0x22, 0x2c, 0x2f, 0x30, 0x3a, 0x41, 0x5b, 0x5c, 0x5d, 0x62, 0x66, 0x6e, 0x72, 0x74, 0x75, 0x7b, 0x7d, 0x7f, 0xc3, 0xe9];
    let settled = 0;
    const inMemory = scanMemoryBuffer(long.length + 64);
    for (let round = 0; round < 4000; round++) {
      const base = Buffer.from(round % 2 === 0 ? short : long, "utf8");
      const at = Math.floor(next() * base.length);
      base[at] = alphabet[Math.floor(next() * alphabet.length)]!;
      const text = base.toString("utf8");
      let valid: boolean;
      try {
        const v: unknown = JSON.parse(text);
        valid = typeof v === "object" && v !== null && !Array.isArray(v);
      } catch {
        valid = false;
      }
      const got = skimLine(base, 0, base.length, SCAN_FIELDS);
      const label = `round ${round}: byte ${at} of ${JSON.stringify(text.slice(Math.max(0, at - 20), at + 20))}`;
      // The same line read into a scan memory (at an odd offset) is skimmed where it lies, alike.
      inMemory.fill(0x20);
      base.copy(inMemory, 7);
      const there = skimLine(inMemory, 7, 7 + base.length, SCAN_FIELDS);
      expect(there === null ? null : JSON.stringify(there === BLANK ? "blank" : there), label).toBe(got === null ? null : JSON.stringify(got === BLANK ? "blank" : got));
      if (!valid) expect(got, label).toBeNull();
      else if (got !== null) {
        settled += 1;
        expect(got, label).not.toBe(BLANK);
      }
    }
    expect(settled).toBeGreaterThan(500);
  });
});

describe("skimLine's one-call walk in the scanner", () => {
  /** The answer as text, key order, values and timestamp included. */
  const answer = (r: ReturnType<typeof skimLine>): string | null => (r === null ? null : r === BLANK ? "blank" : JSON.stringify({ r: r.record, t: r.timestampMs }));
  const walkInJs = <T>(run: () => T): T => {
    skimTuning.tapeWalk = false;
    try {
      return run();
    } finally {
      skimTuning.tapeWalk = true;
    }
  };
  const next = seededRandom(29);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const keys = ["type", "timestamp", "payload", "role", "cwd", "info", "message", "content", "usage", "input", "text", "id", "name", "output_tokens", "total_token_usage", "is_error", "isMeta", "__proto__", "other", "x", "k\\u0074", "sessionId", "uuid", "command"];
  const scalars = (): unknown => pick(["user", "2026-01-11T09:53:28.293Z", "2026-05-11T11:26:55.123456Z", "é\u0000x", "t".repeat(700), `${" ".repeat(300)}${"w".repeat(400)}`, 0, -12.5e3, 123456789, true, false, null, "a\"b\\c"]);
  const valueOf = (depth: number): unknown => {
    const r = next();
    if (depth > 3 || r < 0.45) return scalars();
    if (r < 0.75) return objectOf(depth + 1);
    return Array.from({ length: Math.floor(next() * 4) }, () => (next() < 0.6 ? objectOf(depth + 1) : scalars()));
  };
  /** Object text with repeated and escaped keys (JSON.stringify would drop duplicates). */
  const objectOf = (depth: number): string => {
    const members = Array.from({ length: Math.floor(next() * 6) }, () => {
      const v = valueOf(depth);
      return `${JSON.stringify(pick(keys)).replace("\\\\", "\\")}:${typeof v === "string" && v.startsWith("{") ? v : Array.isArray(v) ? `[${v.map((x) => (typeof x === "string" && x.startsWith("{") ? x : JSON.stringify(x))).join(",")}]` : JSON.stringify(v)}`;
    });
    return `{${members.join(pick([",", " , "]))}}`;
  };

  it("builds what the JavaScript walk builds, for every plan, on 6,000 random lines", () => {
    const memory = scanMemoryBuffer(1 << 20);
    const plans: ObjectPlan[] = [SCAN_FIELDS, TURN_FIELDS, CODEX_ENVELOPE];
    let built = 0;
    for (let round = 0; round < 6000; round++) {
      const text = Buffer.from(objectOf(0), "utf8");
      // One in five lines gets one byte broken, so invalid lines are walked too.
      if (round % 5 === 4) text[Math.floor(next() * text.length)] = pick([0x00, 0x22, 0x2c, 0x3a, 0x5c, 0x5d, 0x7b, 0x7d, 0x20]);
      const plan = plans[round % plans.length]!;
      memory.fill(0x20, 0, text.length + 16);
      text.copy(memory, 3);
      const got = answer(skimLine(memory, 3, 3 + text.length, plan));
      const want = walkInJs(() => answer(skimLine(memory, 3, 3 + text.length, plan)));
      expect(got, `round ${round}: ${text.toString("utf8").slice(0, 300)}`).toBe(want);
      if (got !== null) built += 1;
    }
    expect(built).toBeGreaterThan(3000);
    expect(built).toBeLessThan(5900);
  });

  it("gives lines of a shared plan with the same strings one frozen record, and others their own", () => {
    const memory = scanMemoryBuffer(1 << 16);
    const skimAt = (text: string): ReturnType<typeof skimLine> => {
      const bytes = Buffer.from(text);
      bytes.copy(memory, 0);
      return skimLine(memory, 0, bytes.length, CODEX_ENVELOPE);
    };
    const line = (ts: string, type: string, role: string) => `{"timestamp":"${ts}","type":"response_item","payload":{"type":"${type}","role":"${role}","content":[{"type":"output_text","text":"x"}]}}`;
    const a = skimAt(line("2026-01-11T09:53:28.293Z", "message", "assistant")) as { record: Record<string, unknown>; timestampMs: number };
    const b = skimAt(line("2026-01-31T23:59:59.999Z", "message", "assistant")) as { record: Record<string, unknown>; timestampMs: number };
    // Same lengths and first, middle and last bytes: only the full comparison tells these apart.
    const c = skimAt(line("2026-01-31T23:59:59.999Z", "mxssage", "assistant")) as { record: Record<string, unknown>; timestampMs: number };
    const d = skimAt(line("2026-01-31T23:59:59.999Z", "message", "assistant\u0021")) as { record: Record<string, unknown>; timestampMs: number };
    expect(b.record).toBe(a.record);
    expect(Object.isFrozen(a.record) && Object.isFrozen(a.record.payload)).toBe(true);
    expect([a.timestampMs, b.timestampMs]).toEqual([Date.parse("2026-01-11T09:53:28.293Z"), Date.parse("2026-01-31T23:59:59.999Z")]);
    expect(c.record).not.toBe(a.record);
    expect(c.record).toEqual({ type: "response_item", payload: { type: "mxssage", role: "assistant" } });
    expect(d.record).toEqual({ type: "response_item", payload: { type: "message", role: "assistant!" } });
    // A value that is not a short string is built per line.
    const e = skimAt('{"timestamp":"2026-01-11T09:53:28.293Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"output_tokens":5}}}}') as { record: Record<string, unknown> };
    const f = skimAt('{"timestamp":"2026-01-11T09:53:28.293Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"output_tokens":5}}}}') as { record: Record<string, unknown> };
    expect(f.record).toEqual(e.record);
    expect(f.record).not.toBe(e.record);
  });

  it("walks in JavaScript a line whose planned parts overflow the tape, alike", () => {
    const parts = Array.from({ length: 3000 }, (_, i) => ({ type: "text", text: `part ${i}` }));
    const text = Buffer.from(JSON.stringify({ type: "assistant", timestamp: "2026-01-11T09:53:28.293Z", message: { role: "assistant", content: parts } }));
    const memory = scanMemoryBuffer(text.length + 64);
    text.copy(memory, 0);
    const got = skimLine(memory, 0, text.length, SCAN_FIELDS);
    expect(got).not.toBeNull();
    expect(answer(got)).toBe(walkInJs(() => answer(skimLine(memory, 0, text.length, SCAN_FIELDS))));
    expect((got as unknown as { record: { message: { content: unknown[] } } }).record.message.content.length).toBe(3000);
  });
});

describe.skipIf(!HAS_SHARED)(`skimLine on every Claude Code corpus line${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  it("gives JSON.parse's facts, and settles every valid line itself", () => {
    const corpus = path.join(SHARED_DIR, "corpus", "claude-code");
    const files = readdirSync(corpus, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".jsonl"));
    expect(files.length).toBeGreaterThan(10);
    let lines = 0;
    let settled = 0;
    for (const file of files) {
      const bytes = readFileSync(path.join(corpus, file));
      let start = 0;
      while (start < bytes.length) {
        let end = bytes.indexOf(0x0a, start);
        if (end === -1) end = bytes.length;
        const stop = end > start && bytes[end - 1] === 0x0d ? end - 1 : end;
        const text = bytes.toString("utf8", start, stop);
        const r = skimLine(bytes, start, stop, SCAN_FIELDS);
        const want = text.trim() === "" ? "blank" : parsed(text);
        if (r === BLANK) expect(want, `${file} byte ${start}`).toBe("blank");
        else if (r !== null) {
          settled += 1;
          expect(want, `${file} byte ${start}`).not.toBeNull();
          const got = claudeFacts(r.record, r.timestampMs);
          expect(sameFacts(got, want as RecordFacts), `${file} byte ${start}`).toBe(true);
        } else if (want !== null && want !== "blank") throw new Error(`${file} byte ${start}: the skim gave up on a valid line`);
        lines += 1;
        start = end + 1;
      }
    }
    expect(lines).toBeGreaterThan(1000);
    expect(settled).toBeGreaterThan(lines * 0.9);
  });
});

describe("skimLine settles a line by an earlier line's repeated tail (Codex: turn_context, token_count)", () => {
  const answer = (r: ReturnType<typeof skimLine>): string | null => (r === null ? null : r === BLANK ? "blank" : JSON.stringify({ r: r.record, t: r.timestampMs }));
  const memory = scanMemoryBuffer(1 << 20);
  /** Skims `text` as read into a scan memory; `reference` skims its own bytes only (no tail kept or looked up). */
  const skimAt = (text: string | Buffer, reference = false): ReturnType<typeof skimLine> => {
    const bytes = typeof text === "string" ? Buffer.from(text) : text;
    memory.fill(0x20, 0, bytes.length + 32);
    bytes.copy(memory, 5);
    if (!reference) return skimLine(memory, 5, 5 + bytes.length, CODEX_ENVELOPE);
    skimTuning.repeatedTails = false;
    try {
      return skimLine(memory, 5, 5 + bytes.length, CODEX_ENVELOPE);
    } finally {
      skimTuning.repeatedTails = true;
    }
  };
  /** The answer of `text`, checked against its reference. */
  const checked = (text: string | Buffer): ReturnType<typeof skimLine> => {
    const got = skimAt(text);
    expect(answer(got), String(text).slice(0, 200)).toBe(answer(skimAt(text, true)));
    return got;
  };
  const instructions = `Follow AGENTS.md.\n\n${'Quote "this" and escape \\\\ here; tabs\tand unicode é ü \\u00e9. '.repeat(40)}`;
  // A cwd over 64 bytes: the record is not one the shared plan shares by its short strings, so only a kept tail makes two lines' records one.
  const CWD = "/home/reviewer/src/github.com/example-org/a-rather-long-repository-name";
  const turnContext = (ts: string, cwd = `${CWD}/a`, tail = "") => `{"timestamp":"${ts}","type":"turn_context","payload":{"cwd":"${cwd}","approval_policy":"never","user_instructions":${JSON.stringify(instructions)}${tail}}}`;
  const stamps = ["2026-05-11T08:27:22.767Z", "2026-05-11T08:27:27.798Z", "2026-05-11T09:00:00.000Z", "2026-05-12T23:59:59.999Z", "2026-06-01T00:00:00.001Z"];

  it("gives every repeat the record of the line it repeats, with its own timestamp", () => {
    const answers = stamps.map((ts) => checked(turnContext(ts)) as { record: Record<string, unknown>; timestampMs: number });
    expect(answers.map((a) => a.timestampMs)).toEqual(stamps.map((ts) => Date.parse(ts)));
    // Kept on its second sighting: the later lines share that line's frozen record.
    expect(answers[2]!.record).toBe(answers[1]!.record);
    expect(answers[4]!.record).toBe(answers[1]!.record);
    expect(Object.isFrozen(answers[1]!.record) && Object.isFrozen(answers[1]!.record.payload)).toBe(true);
    expect(answers[4]!.record).toEqual({ type: "turn_context", payload: { cwd: `${CWD}/a` } });
    // Lines walked whole (first and second sightings) get records of their own.
    expect(answers[1]!.record).not.toBe(answers[0]!.record);
  });

  it("settles by its own bytes a line whose tail differs or cannot stand for it", () => {
    /** Makes the base line's tail kept: its third sighting is settled by the second's record. */
    const keep = () => {
      checked(turnContext(stamps[0]!));
      const second = checked(turnContext(stamps[1]!)) as { record: unknown };
      expect((checked(turnContext(stamps[2]!)) as { record: unknown }).record).toBe(second.record);
    };
    const variants: (string | Buffer)[] = [
      // Same length, a built field differs.
      turnContext(stamps[3]!, `${CWD}/b`),
      // Same length, a raw control byte in a skipped string (invalid JSON).
      turnContext(stamps[3]!).replace("Follow", "Fol\u0001ow"),
      // Same length, a bad escape.
      turnContext(stamps[3]!).replace("\\\\ here", "\\q here"),
      // Same length, the line cut short of its closing brace.
      `${turnContext(stamps[3]!).slice(0, -1)} `,
      // A later duplicate timestamp key overrides the first member.
      turnContext(stamps[3]!, `${CWD}/a`, ',"x":1}, "timestamp":"2030-01-01T00:00:00.000Z","y":{"z":2'),
      // A stamp that is not plain bytes, and one spaced from its key.
      turnContext("2026-05-12T23:59:59.999\\u005a"),
      turnContext(stamps[3]!).replace('"timestamp":"', '"timestamp": "'),
      // Planned members past the scanner's tape (walked in JavaScript), a later timestamp among them.
      `{"timestamp":"${stamps[3]}","type":"turn_context"${',"type":"turn_context"'.repeat(1100)},"timestamp":"2030-01-01T00:00:00.000Z","payload":{"cwd":"${CWD}"}}`,
      // Another stamp shape (longer), and no stamp at all.
      turnContext("2026-05-11T11:26:55.123456Z"),
      turnContext("").replace('"timestamp":"",', ""),
    ];
    for (const variant of variants) {
      keep();
      // Seen three times each: kept or not, every answer is its reference's.
      for (let k = 0; k < 3; k++) checked(variant);
    }
    // The duplicate key's timestamp is the later one, every time, even after a line whose two were equal.
    const duplicate = variants[4] as string;
    expect((checked(duplicate) as { timestampMs: number }).timestampMs).toBe(Date.parse("2030-01-01T00:00:00.000Z"));
    const later = (ts: string) => turnContext(ts, `${CWD}/a`, `,"x":1}, "timestamp":"${stamps[1]}","y":{"z":2`);
    for (const ts of [stamps[0]!, stamps[1]!, stamps[3]!, stamps[4]!]) expect((checked(later(ts)) as { timestampMs: number }).timestampMs).toBe(Date.parse(stamps[1]!));
    // A line that is not in a scan memory (copied into the skim's scratch) is settled alike.
    for (const ts of stamps) {
      const text = Buffer.from(`..${turnContext(ts)}..`);
      const got = skimLine(text, 2, text.length - 2, CODEX_ENVELOPE);
      expect(answer(got)).toBe(answer(skimAt(turnContext(ts), true)));
    }
  });

  it("keeps several tails of one length apart: lines that take turns are each settled by their own", () => {
    // Each turn's turn_context differs by its turn_id only: same length, same sample, another tail.
    const turn = (ts: string, id: string) => turnContext(ts, `${CWD}/t`, `,"turn_id":"019c583a-ac80-7ed0-9dfc-${id}"`);
    const ids = ["122ec18fd769", "b7cbf24840f6", "5a6c088a6bc5"];
    const records = (round: number) => ids.map((id) => (checked(turn(stamps[round]!, id)) as { record: unknown }).record);
    // A tail is kept when its key is seen again: by the third round every id's is.
    records(0);
    records(1);
    const kept = records(2);
    expect(new Set(kept).size).toBe(ids.length);
    expect(kept.every((r) => Object.isFrozen(r))).toBe(true);
    // Every later sighting is settled by its own id's kept tail (with one tail a key they evicted each other).
    for (const round of [3, 4]) {
      const later = records(round);
      for (let k = 0; k < ids.length; k++) expect(later[k], `${ids[k]} round ${round}`).toBe(kept[k]);
    }
  });

  it("skims a line outside a scan memory by its own bytes when a kept tail of its key does not match", () => {
    // Kept from scan-memory reads; then lines of the same length and key, read from plain buffers
    // (copied into the skim's scratch), whose tails differ or whose stamps are not the usual shape.
    for (const ts of stamps.slice(0, 3)) checked(turnContext(ts, `${CWD}/m`));
    const plain = (text: string) => {
      const bytes = Buffer.from(`..${text}..`);
      return skimLine(bytes, 2, bytes.length - 2, CODEX_ENVELOPE);
    };
    for (const text of [turnContext(stamps[3]!, `${CWD}/n`), turnContext("2026-05-12T23:59:59.999+00:00", `${CWD}/m`), turnContext(stamps[4]!, `${CWD}/m`)]) {
      expect(answer(plain(text)), text.slice(0, 80)).toBe(answer(skimAt(text, true)));
    }
  });

  it("keeps each plan's tails apart: the same bytes skimmed for another plan get that plan's record", () => {
    const line = (ts: string) => `{"timestamp":"${ts}","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":37614,"cached_input_tokens":18304,"output_tokens":204,"total_tokens":37818},"last_token_usage":{"input_tokens":18911,"cached_input_tokens":18304,"output_tokens":37,"total_tokens":18948},"model_context_window":258400},"rate_limits":null}}`;
    const at = (ts: string, plan: ObjectPlan) => {
      const bytes = Buffer.from(line(ts));
      bytes.copy(memory, 5);
      return skimLine(memory, 5, 5 + bytes.length, plan) as unknown as { record: { payload: { info: Record<string, Record<string, number>> } } };
    };
    for (const ts of stamps) {
      expect(at(ts, CODEX_ENVELOPE).record.payload.info).toEqual({
        total_token_usage: { input_tokens: 37614, cached_input_tokens: 18304, output_tokens: 204, total_tokens: 37818 },
        last_token_usage: { input_tokens: 18911, cached_input_tokens: 18304, output_tokens: 37 },
      });
    }
    for (const ts of stamps) {
      const info = at(ts, CODEX_SCAN_FIELDS).record.payload.info;
      expect(info).toEqual({ total_token_usage: { input_tokens: 37614, output_tokens: 204, cached_input_tokens: 18304 }, last_token_usage: { input_tokens: 18911, cached_input_tokens: 18304 } });
    }
  });

  it("answers exactly past the kept tails' byte budget (12 MB of distinct repeated tails)", () => {
    let settled = 0;
    for (let n = 0; n < 3000; n++) {
      const payload = { cwd: `${CWD}/${n}`, user_instructions: `${n} ${instructions.slice(0, 4000)}` };
      for (const ts of stamps.slice(0, 3)) {
        const got = checked(`{"timestamp":"${ts}","type":"turn_context","payload":${JSON.stringify(payload)}}`);
        if (ts === stamps[2] && got !== null && got !== BLANK && Object.isFrozen(got.record)) settled += 1;
      }
    }
    // Every third sighting was settled by its tail, the arena forgotten and refilled on the way.
    expect(settled).toBe(3000);
  });

  it("agrees with the line's own bytes on 4,000 lines of repeated, mutated and interleaved tails", () => {
    const next = seededRandom(41);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
    const tokenCount = (ts: string, n: number) => `{"timestamp":"${ts}","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":${37614 + n},"cached_input_tokens":18304,"output_tokens":${204 + n},"reasoning_output_tokens":62,"total_tokens":${37818 + n}},"last_token_usage":{"input_tokens":18911,"cached_input_tokens":18304,"output_tokens":${37 + n},"reasoning_output_tokens":0,"total_tokens":18948},"model_context_window":258400},"rate_limits":null}}`;
    const bases = (ts: string): string[] => [turnContext(ts), turnContext(ts, `${CWD}/b`), tokenCount(ts, 0), tokenCount(ts, 1), tokenCount(ts, 10), `{"timestamp":"${ts}","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":${JSON.stringify(`{"output":"${"line \\\"x\\\"\\n".repeat(40)}"}`)}}}`];
    let settled = 0;
    for (let round = 0; round < 4000; round++) {
      const ts = `2026-05-${String(10 + Math.floor(next() * 20)).padStart(2, "0")}T${String(Math.floor(next() * 24)).padStart(2, "0")}:27:22.${String(Math.floor(next() * 1000)).padStart(3, "0")}Z`;
      const text = Buffer.from(pick(bases(ts)));
      // One line in four gets one byte changed anywhere (its timestamp, a built field, a skipped string, the structure).
      if (round % 4 === 3) text[Math.floor(next() * text.length)] = pick([0x00, 0x22, 0x2c, 0x30, 0x39, 0x3a, 0x5c, 0x61, 0x7d, 0x20]);
      const got = skimAt(text);
      expect(answer(got), `round ${round}: ${text.toString("utf8").slice(0, 120)}`).toBe(answer(skimAt(text, true)));
      if (got !== null && got !== BLANK && Object.isFrozen(got.record) && (got.record.type === "turn_context" || (got.record.payload as Record<string, unknown> | undefined)?.type === "token_count")) settled += 1;
    }
    // Most repeats were settled by their tails (turn_context and token_count records are otherwise built per line).
    expect(settled).toBeGreaterThan(1500);
  });
});

describe.skipIf(!HAS_SHARED)(`repeated tails on every Codex corpus and fixture line${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  it("give each line its own bytes' answer, and settle the real repeats", () => {
    const files = ["corpus/codex", "fixtures/prompt-diary"].flatMap((dir) =>
      readdirSync(path.join(SHARED_DIR, dir), { recursive: true, encoding: "utf8" })
        .filter((f) => f.endsWith(".jsonl") && (dir === "corpus/codex" || f.includes("codex")))
        .map((f) => path.join(SHARED_DIR, dir, f)),
    );
    expect(files.length).toBeGreaterThan(0);
    const memory = scanMemoryBuffer(64 << 20);
    const answer = (r: ReturnType<typeof skimLine>) => (r === null ? "null" : r === BLANK ? "blank" : JSON.stringify([r.record, r.timestampMs]));
    let settled = 0;
    for (const file of files) {
      const bytes = readFileSync(file);
      if (bytes.length > memory.length) continue;
      bytes.copy(memory, 0);
      for (const plan of [CODEX_ENVELOPE, CODEX_SCAN_FIELDS]) {
        for (let start = 0; start < bytes.length; ) {
          const lf = bytes.indexOf(0x0a, start);
          const end = lf === -1 ? bytes.length : lf;
          const got = skimLine(memory, start, end, plan);
          skimTuning.repeatedTails = false;
          const own = skimLine(memory, start, end, plan);
          skimTuning.repeatedTails = true;
          expect(answer(got), `${path.basename(file)} at byte ${start}`).toBe(answer(own));
          // A record frozen only because a kept tail settled the line.
          if (got !== null && got !== BLANK && own !== null && own !== BLANK && Object.isFrozen(got.record) && !Object.isFrozen(own.record)) settled += 1;
          start = end + 1;
        }
      }
    }
    expect(settled).toBeGreaterThan(0);
  });
});
