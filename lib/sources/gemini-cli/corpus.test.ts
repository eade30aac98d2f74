import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

import type { AgentTranscript, FoundSession } from "@/lib/sources/common/agent-source";
import { parsedLegacyLines } from "@/lib/sources/gemini-cli/export-lines";
import { geminiSource } from "@/lib/sources/gemini-cli/source";
import { HAS_SHARED, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

if (!HAS_SHARED) console.warn(SKIP_SHARED_MESSAGE);

const HOME = path.join(SHARED_DIR, "corpus", "agents-home", ".gemini");

type Figures = {
  records: number;
  turns: number;
  calls: number;
  results: number;
  failedResults: number;
  errorRecords: number;
  usageLines: number;
  input: number;
  output: number;
  cacheRead: number;
  reasoning: number;
};

function figures(t: AgentTranscript): Figures {
  const usage = t.records.flatMap((r) => r.usage);
  const sum = (key: "input" | "output" | "cacheRead" | "reasoning") => usage.reduce((a, u) => a + u[key], 0);
  return {
    records: t.records.length,
    turns: t.turns.length,
    calls: t.records.reduce((a, r) => a + r.calls.length, 0),
    results: t.records.reduce((a, r) => a + r.results.length, 0),
    failedResults: t.records.reduce((a, r) => a + r.results.filter((x) => x.isError).length, 0),
    errorRecords: t.records.filter((r) => r.isError).length,
    usageLines: t.records.filter((r) => r.usage.length > 0).length,
    input: sum("input"),
    output: sum("output"),
    cacheRead: sum("cacheRead"),
    reasoning: sum("reasoning"),
  };
}

const none = { calls: 0, results: 0, failedResults: 0, errorRecords: 0, usageLines: 0, input: 0, output: 0, cacheRead: 0, reasoning: 0 };

/** Counted by reading the seven files (agent-formats.md §7): records = messages + 1 header line. */
const EXPECTED: Record<string, Figures> = {
  "abc123def456__session-2024-01-01T10-00-sess-uui.json.jsonl": { ...none, records: 5, turns: 2, usageLines: 2, input: 3350, output: 500, cacheRead: 150, reasoning: 150 },
  "abc123def456__session-2024-01-01T10-00-sess-uuid-2.json.jsonl": { ...none, records: 3, turns: 1, calls: 1 },
  "abc123def456__session-2024-01-01T10-00-sess-uuid-3.json.jsonl": { ...none, records: 4, turns: 0, errorRecords: 1 },
  "abc123def456__session-2024-01-01T10-00-sess-uuid-thinking.json.jsonl": { ...none, records: 3, turns: 1 },
  "abc123def456__session-2024-01-01T10-00-sess-uuid-tool-results.json.jsonl": { ...none, records: 3, turns: 1, calls: 2, results: 2 },
  "django-control-flash__session-2026-03-26T04-30-209f5a02.json.jsonl": {
    records: 60, turns: 4, calls: 44, results: 44, failedResults: 0, errorRecords: 3, usageLines: 45,
    input: 131_666, output: 4_189, cacheRead: 1_604_238, reasoning: 20_518,
  },
  "django-matrix-pro__session-2026-03-26T09-37-a4f28921.json.jsonl": {
    records: 191, turns: 1, calls: 188, results: 188, failedResults: 2, errorRecords: 2, usageLines: 189,
    input: 921_506, output: 21_854, cacheRead: 19_168_687, reasoning: 121_003,
  },
};

async function readAll(): Promise<{ session: FoundSession; lines: string[]; t: AgentTranscript }[]> {
  const { sessions, warnings } = await geminiSource.discover(HOME);
  expect(warnings).toEqual([]);
  const out = [];
  for (const session of sessions) {
    const { lines, warnings: exportWarnings } = await geminiSource.exportLines(session);
    expect(exportWarnings).toEqual([]);
    out.push({ session, lines, t: geminiSource.parseLines(lines, session.fileName) });
  }
  return out;
}

describe("Gemini CLI corpus (shared/corpus/agents-home/.gemini)", () => {
  it.skipIf(!HAS_SHARED)("discovers the 7 sessions in 3 folders with their ids and project roots", async () => {
    const { sessions } = await geminiSource.discover(HOME);
    expect(sessions.map((s) => [s.fileName, s.sourceSessionId, s.projectRoot])).toEqual([
      ["abc123def456__session-2024-01-01T10-00-sess-uui.json.jsonl", "sess-uuid-1", null],
      ["abc123def456__session-2024-01-01T10-00-sess-uuid-2.json.jsonl", "sess-uuid-2", null],
      ["abc123def456__session-2024-01-01T10-00-sess-uuid-3.json.jsonl", "sess-uuid-3", null],
      ["abc123def456__session-2024-01-01T10-00-sess-uuid-thinking.json.jsonl", "sess-uuid-thinking", null],
      ["abc123def456__session-2024-01-01T10-00-sess-uuid-tool-results.json.jsonl", "sess-uuid-tool-results", null],
      ["django-control-flash__session-2026-03-26T04-30-209f5a02.json.jsonl", "209f5a02-005a-47f8-a0f9-a959f14ca9e7", "/home/kingb/aim_benchmarks/django_control_flash"],
      ["django-matrix-pro__session-2026-03-26T09-37-a4f28921.json.jsonl", "a4f28921-b13d-4265-9a7c-696be66dfd8c", "/home/kingb/aim_benchmarks/django_matrix_pro"],
    ]);
    expect(sessions.every((s) => s.source === "gemini-cli" && s.part === null && /^\d+:\d+(\.\d+)?$/.test(s.stamp))).toBe(true);
  });

  it.skipIf(!HAS_SHARED)("reads each session to the exact figures counted from its file", async () => {
    const all = await readAll();
    expect(Object.fromEntries(all.map(({ session, t }) => [session.fileName, figures(t)]))).toEqual(EXPECTED);
    for (const { lines, t } of all) {
      expect(t.records.map((r) => r.line)).toEqual(lines.map((_, i) => i + 1));
      expect(t.warnings).toEqual([]);
      expect(t.title).toBeNull();
    }
  });

  it.skipIf(!HAS_SHARED)("adds up to the corpus totals, every usage line under its model", async () => {
    const all = await readAll();
    const usage = all.flatMap(({ t }) => t.records.flatMap((r) => r.usage));
    expect({
      sessions: all.length,
      records: all.reduce((a, { t }) => a + t.records.length, 0),
      turns: all.reduce((a, { t }) => a + t.turns.length, 0),
      calls: all.reduce((a, { t }) => a + t.records.reduce((b, r) => b + r.calls.length, 0), 0),
      input: usage.reduce((a, u) => a + u.input, 0),
      output: usage.reduce((a, u) => a + u.output, 0),
      cacheRead: usage.reduce((a, u) => a + u.cacheRead, 0),
      cacheWrite: usage.reduce((a, u) => a + u.cacheWrite, 0),
      reasoning: usage.reduce((a, u) => a + u.reasoning, 0),
    }).toEqual({ sessions: 7, records: 269, turns: 10, calls: 235, input: 1_056_522, output: 26_543, cacheRead: 20_773_075, cacheWrite: 0, reasoning: 141_671 });
    const byModel = new Map<string | null, number>();
    for (const u of usage) byModel.set(u.model, (byModel.get(u.model) ?? 0) + 1);
    expect([...byModel]).toEqual([
      [null, 2],
      ["gemini-3-flash-preview", 45],
      ["gemini-3.1-pro-preview", 189],
    ]);
  });

  it.skipIf(!HAS_SHARED)("gives headlines, spans and errors a reader can cite", async () => {
    const all = await readAll();
    const byName = new Map(all.map((x) => [x.session.fileName.split("__")[1]!, x.t]));
    const flash = byName.get("session-2026-03-26T04-30-209f5a02.json.jsonl")!;
    expect([flash.startedAt, flash.endedAt]).toEqual(["2026-03-26T04:30:11.995Z", "2026-03-26T04:40:51.997Z"]);
    expect(flash.turns.map((t) => t.turn_start_line)).toEqual([3, 7, 11, 15]);
    expect(flash.records[2]!.headline).toBe("User: hello");
    expect(flash.records[3]!).toMatchObject({ type: "error", role: "system", isError: true, headline: "Error: [API Error: Requested entity was not found.]" });
    expect(flash.records[15]!.headline).toBe("read_file TASK.md");
    const pro = byName.get("session-2026-03-26T09-37-a4f28921.json.jsonl")!;
    const failed = pro.records.filter((r) => r.isError);
    expect(failed.map((r) => r.headline)).toEqual(["read_file aim_os/django.engram (error)", "read_file aim_os/src/aim_exchange.py (error)"]);
    expect(failed[0]!.results[0]!.output).toBe("File size exceeds the 20MB limit: /home/kingb/aim_benchmarks/django_matrix_pro/aim_os/django.engram (25.04MB)");
    const tools = byName.get("session-2024-01-01T10-00-sess-uuid-tool-results.json.jsonl")!;
    expect(tools.records[2]!.headline).toBe("read_file .planning/ONE-PAGER.md; run_command: ls -la");
    expect(tools.records[2]!.calls.map((c) => c.files)).toEqual([[".planning/ONE-PAGER.md"], []]);
    const noResult = byName.get("session-2024-01-01T10-00-sess-uuid-2.json.jsonl")!;
    expect(noResult.records[2]).toMatchObject({ headline: "read_file main.go", results: [] });
    const thinking = byName.get("session-2024-01-01T10-00-sess-uuid-thinking.json.jsonl")!;
    expect(thinking.records[2]!.reasoning).toContain("Planning response: I should describe the config loading flow.");
  });
});

describe.skipIf(!HAS_SHARED)("a legacy chat read back as it is exported (its bytes written as cut, its lines parsed once)", () => {
  it("reads the same records as the document parsed whole gives", async () => {
    const { sessions } = await geminiSource.discover(HOME);
    const legacy = sessions.filter((s) => s.sourcePath.endsWith(".json"));
    expect(legacy.length).toBeGreaterThan(5);
    for (const session of legacy) {
      const { lines, objects, bytes } = await geminiSource.exportLines(session);
      expect(objects).toBeUndefined();
      expect(bytes!.toString("utf8")).toBe(lines.map((l) => `${l}\n`).join(""));
      const parsed = parsedLegacyLines(readFileSync(session.sourcePath, "utf8"), session.sourcePath);
      expect(geminiSource.parseLines(lines, session.fileName)).toEqual(geminiSource.parseLines(parsed.lines, session.fileName, parsed.objects));
    }
  });
});
