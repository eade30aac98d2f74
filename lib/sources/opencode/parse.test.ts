import { describe, expect, it } from "vitest";
import { jsonLine } from "@/lib/sources/common/agent-source";
import { opencodeSource } from "@/lib/sources/opencode/source";

const FILE = "ses_x.jsonl";
const session = { id: "ses_x", projectID: "p", directory: "/w", title: "T", version: "1.2.0", time: { created: 1767225600000, updated: 1767225600000 } };
const user = { id: "msg_1", sessionID: "ses_x", role: "user", time: { created: 1767225601000 }, agent: "build" };
const userText = { id: "prt_1", sessionID: "ses_x", messageID: "msg_1", type: "text", text: "run the linter" };
const assistant = {
  id: "msg_2",
  sessionID: "ses_x",
  role: "assistant",
  time: { created: 1767225602000 },
  modelID: "gpt-5",
  providerID: "openai",
  cost: 0.01,
  tokens: { input: 10, output: 5, reasoning: 0, cache: { read: 0, write: 0 } },
};
const tool = (state: Record<string, unknown>, name = "bash") => ({ id: "prt_2", sessionID: "ses_x", messageID: "msg_2", type: "tool", callID: "c1", tool: name, state });

describe("parseLines", () => {
  it("reads malformed, half-written, blank and unknown lines as records with warnings, never throwing", () => {
    const lines = [
      jsonLine(session),
      jsonLine(user),
      jsonLine(userText),
      "",
      jsonLine({ something: "else", words: ["alpha", "beta"] }),
      jsonLine({ ...userText, id: "prt_9", type: "hologram", text: "shiny" }),
      jsonLine(assistant),
      '{"id":"prt_3","type":"text","text":"half wri',
    ];
    const t = opencodeSource.parseLines(lines, FILE);
    expect(t.records.map((r) => [r.line, r.type])).toEqual([
      [1, "session"],
      [2, "message:user"],
      [3, "part:text"],
      [4, "malformed"],
      [5, "unknown"],
      [6, "part:hologram"],
      [7, "message:assistant"],
      [8, "malformed"],
    ]);
    expect(t.warnings).toEqual([
      { file: FILE, where: "line 4", problem: "not a JSON object (malformed or half-written line)" },
      { file: FILE, where: "line 5", problem: "not an OpenCode session, message or part" },
      { file: FILE, where: "line 6", problem: 'unknown part type "hologram"' },
      { file: FILE, where: "line 8", problem: "not a JSON object (malformed or half-written line)" },
    ]);
    expect(t.records[4]!.text).toBe("else\nalpha\nbeta");
    expect(t.records[5]!.text).toBe("shiny");
    expect(t.records[7]!.text).toBe('{"id":"prt_3","type":"text","text":"half wri');
    expect(t.turns).toEqual([{ turn_start_line: 2, turn_end_line: 8 }]);
  });

  it("never throws on any prefix of any line of a session", () => {
    const lines = [jsonLine(session), jsonLine(user), jsonLine(userText), jsonLine(assistant), jsonLine(tool({ status: "completed", input: { command: "ls" }, output: "a", metadata: { exit: 0 } }))];
    for (let i = 0; i < lines.length; i++) {
      for (let cut = 0; cut <= lines[i]!.length; cut += 7) {
        const damaged = lines.map((l, j) => (j === i ? l.slice(0, cut) : l));
        expect(() => opencodeSource.parseLines(damaged, FILE)).not.toThrow();
      }
    }
    expect(opencodeSource.parseLines([], FILE)).toEqual({ records: [], turns: [], startedAt: null, endedAt: null, title: null, absent: [], warnings: [] });
  });

  it("reads tool states: a bash exit code, an error, a call still running", () => {
    const lines = [
      jsonLine(session),
      jsonLine(assistant),
      jsonLine(tool({ status: "completed", input: { command: "npm run lint" }, output: "ok", metadata: { exit: 0 }, time: { start: 1767225603000, end: 1 } })),
      jsonLine(tool({ status: "completed", input: { command: "npm test" }, output: "1 failed", metadata: { exit: 2 } })),
      jsonLine(tool({ status: "error", input: { filePath: "/w/a.ts" }, error: "File not found" }, "read")),
      jsonLine(tool({ status: "running", input: { pattern: "*.ts", path: "/w" }, time: { start: 1 } }, "glob")),
      jsonLine(tool({ status: "completed", input: { url: "https://example.com" }, output: "<html>", title: "example" }, "webfetch")),
      jsonLine(tool({ status: "completed", input: { query: "q" }, output: "r", title: "searched q" }, "mcp_search")),
    ];
    const r = opencodeSource.parseLines(lines, FILE).records;
    expect(r.slice(2).map((x) => [x.headline, x.isError, x.results.length])).toEqual([
      ["bash: npm run lint (exit 0)", false, 1],
      ["bash: npm test (exit 2)", true, 1],
      ["Read /w/a.ts — error: File not found", true, 1],
      ["Glob *.ts (running)", false, 0],
      ["Fetch https://example.com", false, 1],
      ["mcp_search: searched q", false, 1],
    ]);
    expect(r[2]!.time).toBe("2026-01-01T00:00:03.000Z");
    expect(r[4]!.results).toEqual([{ id: "c1", name: "read", output: "File not found", isError: true }]);
    expect(r[5]!.calls[0]!.files).toEqual(["/w"]);
    expect(r[3]!.text).toBe("bash\nnpm test\n1 failed");
  });

  it("reads the other part types with their words and one-line headlines", () => {
    const part = (fields: Record<string, unknown>) => jsonLine({ id: "prt_z", sessionID: "ses_x", messageID: "msg_1", ...fields });
    const lines = [
      jsonLine(user),
      part({ type: "file", mime: "text/plain", filename: "notes.txt", url: "file:///w/notes.txt", source: { type: "file", path: "/w/notes.txt", text: { value: "@notes.txt", start: 0, end: 10 } } }),
      part({ type: "file", mime: "image/png", filename: "shot.png", url: "data:image/png;base64,AAAA" }),
      part({ type: "agent", name: "explore" }),
      part({ type: "subtask", agent: "general", description: "look around", prompt: "Look around the repo" }),
      part({ type: "compaction", auto: true }),
      part({ type: "snapshot", snapshot: "abc123" }),
      part({ type: "text", text: "line one\nline two" }),
    ];
    const r = opencodeSource.parseLines(lines, FILE).records;
    expect(r.map((x) => x.headline)).toEqual([
      "User: line one line two",
      "File: notes.txt",
      "File: shot.png",
      "Agent: explore",
      "Subtask (general): look around",
      "Compaction (automatic)",
      "Snapshot abc123",
      "User: line one line two",
    ]);
    expect(r[1]!.text).toBe("notes.txt\nfile:///w/notes.txt\n/w/notes.txt\n@notes.txt");
    expect(r[2]!.text).toBe("shot.png");
    expect(r[0]!.trigger).toBe(true);
  });

  it("gives a user message made of synthetic text no turn", () => {
    const lines = [jsonLine(session), jsonLine(user), jsonLine({ ...userText, synthetic: true, text: "The following tool was executed by the user" })];
    const t = opencodeSource.parseLines(lines, FILE);
    expect(t.turns).toEqual([]);
    expect(t.records[1]!.headline).toBe("User (synthetic): The following tool was executed by the user");
  });
});
