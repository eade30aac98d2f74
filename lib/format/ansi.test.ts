/** Tests of terminal colour output. */
import fs from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { ansiChunks } from "@/lib/format/ansi";
import { cleanTerminalText } from "@/lib/format/display-text";
import { HAS_SHARED, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

const PHANTOM = path.join(SHARED_DIR, "corpus/claude-code/phantom-reads/session-examples/2.1.6-bad/bf88e2ff-ac8b-4f29-8dbf-c2467325fe4e.jsonl");

describe("terminal colour", () => {
  it("turns colour codes into styled chunks with no escape left", () => {
    const chunks = ansiChunks("\u001b(B\u001b[mok \u001b[31mred\u001b[0m \u001b]0;title\u0007done\u001b[3");
    expect(chunks.map((c) => c.text).join("")).toBe("ok red done");
    expect(chunks.find((c) => c.text === "red")?.style).toEqual({ color: "rgb(187, 0, 0)" });
    expect(cleanTerminalText("10%\r50%\r100%\nnext")).toBe("100%\nnext");
  });
});

describe.skipIf(!HAS_SHARED)(`terminal colour on a real tool result${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  it("a Claude Code Bash result with charset and reset codes reads clean", () => {
    const coloured = JSON.parse(fs.readFileSync(PHANTOM, "utf8").split("\n")[15]!).message.content[0].content as string;
    expect(coloured).toContain("\u001b[m");
    expect(ansiChunks(coloured).map((c) => c.text).join("")).toBe("20260113-100413");
  });
});
