/** A legacy chat's lines found by the byte pass, against the document parsed whole (the reference). */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

import { legacyLines, parsedLegacyLines } from "@/lib/sources/gemini-cli/export-lines";
import { scanLegacyChat } from "@/lib/sources/gemini-cli/legacy-scan";
import { parseGeminiLines } from "@/lib/sources/gemini-cli/parse";
import { seededRandom } from "@/lib/testing/random";
import { HAS_SHARED, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

if (!HAS_SHARED) console.warn(SKIP_SHARED_MESSAGE);

const FIXTURES = path.join(__dirname, "__fixtures__");
const LEGACY = readFileSync(path.join(FIXTURES, "legacy.json"));

/**
 * The byte pass gives what parsing the document whole gives: lines that parse to the same values
 * (or the same lines when it falls back), the same warnings, and the same transcript read back.
 */
function expectAsParsed(data: Buffer): void {
  const scanned = legacyLines(data, "chat.json");
  const parsed = parsedLegacyLines(data.toString("utf8"), "chat.json");
  expect(scanned.warnings).toEqual(parsed.warnings);
  expect(scanned.lines.map((l) => JSON.parse(l) as unknown)).toEqual(parsed.lines.map((l) => JSON.parse(l) as unknown));
  if (scanned.bytes !== undefined) expect(scanned.bytes.toString("utf8")).toBe(scanned.lines.map((l) => `${l}\n`).join(""));
  expect(parseGeminiLines(scanned.lines, "chat.json", scanned.objects)).toEqual(parseGeminiLines(parsed.lines, "chat.json", parsed.objects));
}

describe("scanLegacyChat", () => {
  it("cuts a pretty-printed chat into the lines JSON.stringify would write, with their bytes", () => {
    const scanned = scanLegacyChat(LEGACY)!;
    // legacy.json is JSON.stringify(…, null, 2) output: without its whitespace it is the compact form.
    expect(scanned.lines).toEqual(parsedLegacyLines(LEGACY.toString("utf8"), "legacy.json").lines);
    expect(scanned.bytes!.toString("utf8")).toBe(scanned.lines.map((l) => `${l}\n`).join(""));
    expectAsParsed(LEGACY);
  });

  it("keeps the original escapes and the order of the keys; the header's keys after messages too", () => {
    const text = '{ "messages" : [ { "id" : "u", "type":"user", "content" : "caf\\u00e9 \\"a b\\" \\\\ \\/ é 😀" } , 5 , [ 1.50 , -1.0e+2 ] ],\n\t"sessionId": "s",\r\n "summary" : "x  y" }  \n';
    const scanned = scanLegacyChat(Buffer.from(text))!;
    expect(scanned.lines).toEqual(['{"sessionId":"s","summary":"x  y"}', '{"id":"u","type":"user","content":"caf\\u00e9 \\"a b\\" \\\\ \\/ é 😀"}', "5", "[1.50,-1.0e+2]"]);
    const parsed = parsedLegacyLines(text, "chat.json");
    expect(scanned.lines.map((l) => JSON.parse(l) as unknown)).toEqual(parsed.lines.map((l) => JSON.parse(l) as unknown));
    // A message that is not an object is shown as its line: now as written (`1.50`, not `1.5`).
    expect(parseGeminiLines(scanned.lines, "chat.json").records.map((r) => [r.type, r.text])).toEqual([["session", "s\nx  y"], ["user", "café \"a b\" \\ / é 😀"], ["malformed", "5"], ["malformed", "[1.50,-1.0e+2]"]]);
    expect(scanLegacyChat(Buffer.from('{"messages":[]}'))!.lines).toEqual(["{}"]);
  });

  it("leaves to the whole parse what it does not read: malformed, odd or not UTF-8", () => {
    const cases = [
      "",
      "[]",
      '{"sessionId":"s"}',
      '{"sessionId":"s","messages":{}}',
      '{"messages":[],"messages":[]}',
      '{"messag\\u0065s":[{"id":"a"}]}',
      '{"messages":[{"id":"a"}]} x',
      '{"messages":[{"id":"a"},]}',
      '{"messages":[{"id":"a"}]',
      '{"messages":[{"n":1 2}]}',
      '{"messages":[{"n":tru e}]}',
      '{"messages":[{"t":"a\tb"}]}',
      '\ufeff{"messages":[]}',
      '{"messages":[{"t":"a\u2028b"}]}',
      '{"messages":[{"t":"a\u0085b"}]}',
    ];
    for (const text of cases) {
      expect(scanLegacyChat(Buffer.from(text)), text).toBeNull();
      expectAsParsed(Buffer.from(text));
    }
    const invalid = Buffer.concat([Buffer.from('{"messages":[{"t":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}]}')]);
    expect(scanLegacyChat(invalid)).toBeNull();
    expectAsParsed(invalid);
  });

  it("reads a chat cut short or damaged anywhere as the whole parse does (fuzz, seeded)", () => {
    const next = seededRandom(38);
    const inserts = [" ", "\n", "}", "]", ",", '"', "\\", ":", "x", "0", "{", "[", "\t"];
    for (let n = 0; n < 300; n++) {
      const at = Math.floor(next() * LEGACY.length);
      const kind = Math.floor(next() * 3);
      const damaged =
        kind === 0
          ? LEGACY.subarray(0, at)
          : kind === 1
            ? Buffer.concat([LEGACY.subarray(0, at), LEGACY.subarray(at + 1)])
            : Buffer.concat([LEGACY.subarray(0, at), Buffer.from(inserts[Math.floor(next() * inserts.length)]!), LEGACY.subarray(at)]);
      expectAsParsed(damaged);
    }
  });

  it("reads a smaller chat after a larger one in the same scan memory (nothing of the older bytes read)", () => {
    expect(scanLegacyChat(Buffer.from(`{"messages":[{"t":"${"x".repeat(200_000)}"}]}`))).not.toBeNull();
    expect(scanLegacyChat(Buffer.from('{"messages":[{"t":"x"}'))).toBeNull();
    expect(scanLegacyChat(Buffer.from('{"messages":[{"t":"x"}]'))).toBeNull();
  });
});

describe.skipIf(!HAS_SHARED)("scanLegacyChat on the corpus chats", () => {
  it("gives every captured legacy chat's lines as JSON.stringify of its parsed messages, parsed to the same transcript", () => {
    const tmp = path.join(SHARED_DIR, "corpus", "agents-home", ".gemini", "tmp");
    const files = readdirSync(tmp).flatMap((d) => readdirSync(path.join(tmp, d, "chats")).filter((f) => f.endsWith(".json")).map((f) => path.join(tmp, d, "chats", f)));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const data = readFileSync(file);
      expect(scanLegacyChat(data), file).not.toBeNull();
      expectAsParsed(data);
    }
  });
});
