/** Tests of how transcript text reaches the page: terminal sequences, control and bidi characters (issue 35 item 10, issue 36 item 5). */
import { describe, expect, it } from "vitest";

import { ansiChunks } from "@/lib/format/ansi";
import { cleanTerminalText, displayText, splitControls, stripTerminal } from "@/lib/format/display-text";
import { oneLine, previewLine } from "@/lib/format/one-line";
import { matchSnippet } from "@/lib/format/text-match";

/** Claude Code's `/context` output as a transcript stores it (synchronized-output mode, SGR bold and truecolour). */
const CONTEXT = "\u001b[?2026h\u001b[1mContext Usage\u001b[22m\n\u001b[38;2;136;136;136m⛁ ⛀ \u001b[39m\u001b[38;2;153;153;153mclaude-opus-4-5 · 31k/200k tokens (16%)\u001b[39m\u001b[?2026l";
const CONTEXT_PLAIN = "Context Usage\n⛁ ⛀ claude-opus-4-5 · 31k/200k tokens (16%)";

describe("terminal sequences", () => {
  it("strips CSI with private modes, SGR, OSC-8 links (their text stays), titles, DCS, charset and keypad escapes", () => {
    expect(stripTerminal(CONTEXT)).toBe(CONTEXT_PLAIN);
    expect(stripTerminal("see \u001b]8;;https://example.test/a\u001b\\the docs\u001b]8;;\u001b\\ now")).toBe("see the docs now");
    expect(stripTerminal("\u001b]8;id=1;https://example.test\u0007link\u001b]8;;\u0007")).toBe("link");
    expect(stripTerminal("\u001b]0;window title\u0007\u001b(B\u001b=\u001b7x\u001b8\u001bP1$r0m\u001b\\\u001b[2K\u001b[1Gy")).toBe("xy");
    expect(stripTerminal("cut at the end \u001b[38;2;1")).toBe("cut at the end ");
  });

  it("keeps SGR for the colour parser and turns progress redraws into their last state", () => {
    expect(cleanTerminalText("\u001b[?25l\u001b[31mred\u001b[0m")).toBe("\u001b[31mred\u001b[0m");
    expect(cleanTerminalText("\u001b[32m10%\r50%\r100%\u001b[0m\nnext")).toBe("\u001b[32m100%\u001b[0m\nnext");
  });

  it("colours the /context output and leaves no escape in its text", () => {
    const chunks = ansiChunks(CONTEXT);
    expect(chunks.map((c) => c.text).join("")).toBe(CONTEXT_PLAIN);
    expect(chunks.find((c) => c.text === "Context Usage")?.style).toEqual({ fontWeight: 600 });
    expect(chunks.find((c) => c.text === "⛁ ⛀ ")?.style).toEqual({ color: "rgb(136, 136, 136)" });
    expect(chunks.some((c) => c.control)).toBe(false);
  });
});

describe("control and bidi characters", () => {
  it("are their own pieces, each a visible escape with its name", () => {
    expect(splitControls("abc\u202Edef")).toEqual([{ text: "abc" }, { text: "\\u202E", control: "U+202E right-to-left override" }, { text: "def" }]);
    expect(splitControls("\u2066x\u2069").map((p) => p.text)).toEqual(["\\u2066", "x", "\\u2069"]);
    expect(splitControls("a\u0007b\u007f\u009b").map((p) => p.text)).toEqual(["a", "␇", "b", "␡", "\\u009B"]);
    expect(splitControls("plain\ttext\r\nnext")).toEqual([{ text: "plain\ttext\r\nnext" }]);
    expect(splitControls("")).toEqual([{ text: "" }]);
  });

  it("read as escapes in a plain string: every bidi control, C0, C1, a lone carriage return, an ESC that starts no sequence", () => {
    expect(displayText("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")).toBe(
      "\\u061C\\u200E\\u200F\\u202A\\u202B\\u202C\\u202D\\u202E\\u2066\\u2067\\u2068\\u2069",
    );
    expect(displayText("\u0000\u0008\u000b\u000c\u0085 x\ry\r\nz")).toBe("␀␈␋␌\\u0085 x␍y\r\nz");
    expect(displayText("z \u001b\n")).toBe("z ␛\n");
    expect(displayText("evil\u202Etxt.exe \u001b[31mred\u001b[0m")).toBe("evil\\u202Etxt.exe red");
  });

  it("a string already shown is shown the same again", () => {
    const once = displayText(`${CONTEXT} \u202E \u0001`);
    expect(displayText(once)).toBe(once);
  });

  it("keep their place inside coloured terminal output", () => {
    const chunks = ansiChunks("\u001b[31mab\u202Ecd\u001b[0m");
    expect(chunks).toEqual([
      { text: "ab", style: { color: "rgb(187, 0, 0)" } },
      { text: "\\u202E", style: { color: "rgb(187, 0, 0)" }, control: "U+202E right-to-left override" },
      { text: "cd", style: { color: "rgb(187, 0, 0)" } },
    ]);
    expect(ansiChunks("a\u202Eb")).toEqual([
      { text: "a", style: undefined },
      { text: "\\u202E", style: undefined, control: "U+202E right-to-left override" },
      { text: "b", style: undefined },
    ]);
  });
});

describe("one-line previews (banner, table, headlines)", () => {
  it("carry no terminal sequence and no raw control", () => {
    expect(oneLine(CONTEXT, 200)).toBe("Context Usage ⛁ ⛀ claude-opus-4-5 · 31k/200k tokens (16%)");
    expect(previewLine("\u001b[?2026h\u001b[?2026l", 50)).toBeNull();
    expect(oneLine("pay\u202Eexe.pdf", 100)).toBe("pay\\u202Eexe.pdf");
  });

  it("are never cut inside an escape", () => {
    expect(oneLine("abcd\u202Eefgh", 6)).toBe("abcd…");
    expect(oneLine("abcdefgh", 6)).toBe("abcde…");
  });
});

describe("search snippets", () => {
  it("show a matching line's text without terminal sequences, controls as escapes", () => {
    const line = JSON.stringify({ type: "user", message: { content: `${CONTEXT} \u202Emarker` } });
    expect(matchSnippet(line, /marker/gi, 200)).toBe("Context Usage ⛁ ⛀ claude-opus-4-5 · 31k/200k tokens (16%) \\u202Emarker");
    // A line that is not JSON: its escapes are undone first, then shown the same way.
    expect(matchSnippet(`{"text":"\\u001b[1mbold\\u001b[22m \\u202e marker"`, /marker/gi)).toBe('{"text":"bold \\u202E marker"');
  });
});
