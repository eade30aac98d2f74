/** Tests of compact trimming (contract §4.2). */
import { describe, expect, it } from "vitest";

import {
  boundedInputSummary,
  boundedPreview,
  boundedText,
  PREVIEW_HEAD_BYTES,
  PREVIEW_TAIL_BYTES,
  SHORT_TOOL_RESULT_BYTES,
  TRIM_MARKER,
  trimToolResultPreview,
  utf8ByteLength,
} from "./trim";

const bytes = (text: string) => Buffer.byteLength(text, "utf8");

/** Splits a trimmed preview back into head and tail around the marker. */
function split(preview: string): { head: string; tail: string } {
  const at = preview.indexOf(TRIM_MARKER);
  expect(at).toBeGreaterThanOrEqual(0);
  return { head: preview.slice(0, at), tail: preview.slice(at + TRIM_MARKER.length) };
}

describe("constants (contract §4.2)", () => {
  it("match prompt-diary", () => {
    expect([SHORT_TOOL_RESULT_BYTES, PREVIEW_HEAD_BYTES, PREVIEW_TAIL_BYTES]).toEqual([1024, 320, 160]);
    expect(TRIM_MARKER).toBe("\n...[trimmed]...\n");
  });
});

describe("trimToolResultPreview", () => {
  it("passes a payload of exactly 1024 bytes through untouched", () => {
    const text = "x".repeat(1024);
    expect(trimToolResultPreview(text)).toEqual({ preview: text, truncated: false });
  });

  it("trims 1025 bytes to head 320 + marker + tail 160", () => {
    const text = "h".repeat(320) + "m".repeat(545) + "t".repeat(160);
    expect(bytes(text)).toBe(1025);
    const { preview, truncated } = trimToolResultPreview(text);
    expect(truncated).toBe(true);
    expect(preview).toBe("h".repeat(320) + TRIM_MARKER + "t".repeat(160));
  });

  it("never splits a multi-byte character at the head or tail cut", () => {
    // 3-byte "中" puts the 320th-byte cut inside a character; 4-byte emoji does the same at the tail.
    for (const filler of ["中", "😀", "é", "a中😀é"]) {
      for (let pad = 0; pad < 4; pad += 1) {
        const text = "a".repeat(pad) + filler.repeat(700);
        const { preview, truncated } = trimToolResultPreview(text);
        expect(truncated).toBe(true);
        expect(preview).not.toContain("\ufffd");
        const { head, tail } = split(preview);
        expect(text.startsWith(head)).toBe(true);
        expect(text.endsWith(tail)).toBe(true);
        expect(bytes(head)).toBeLessThanOrEqual(320);
        expect(bytes(head)).toBeGreaterThan(316);
        expect(bytes(tail)).toBeLessThanOrEqual(160);
        expect(bytes(tail)).toBeGreaterThan(156);
      }
    }
  });

  it("counts bytes, not characters: 342 CJK characters (1026 bytes) are trimmed", () => {
    const text = "中".repeat(342);
    expect(text.length).toBeLessThan(1024);
    expect(trimToolResultPreview(text).truncated).toBe(true);
    expect(trimToolResultPreview("中".repeat(341)).truncated).toBe(false);
  });

  it("counts a lone surrogate as its six-byte backslash escape (Python backslashreplace)", () => {
    expect(utf8ByteLength("a\ud800b")).toBe(8);
    expect(utf8ByteLength("😀")).toBe(4);
  });
});

describe("boundedInputSummary (head 320 + marker, no tail)", () => {
  it("keeps inputs of at most 320 bytes", () => {
    const text = "i".repeat(320);
    expect(boundedInputSummary(text)).toEqual({ summary: text, truncated: false });
  });

  it("trims inputs over 320 bytes to the head and the marker", () => {
    const text = "i".repeat(320) + "j".repeat(2000);
    expect(boundedInputSummary(text)).toEqual({ summary: "i".repeat(320) + TRIM_MARKER, truncated: true });
  });
});

describe("boundedText (source-context fallback)", () => {
  it("keeps texts of at most 320 bytes", () => {
    expect(boundedText("c".repeat(320))).toEqual({ text: "c".repeat(320), truncated: false });
  });

  it("uses the head only when the text is at most 480 bytes", () => {
    expect(boundedText("c".repeat(480))).toEqual({ text: "c".repeat(320) + TRIM_MARKER, truncated: true });
  });

  it("uses head + marker + tail past 480 bytes and stays under 600 bytes", () => {
    const text = "h".repeat(320) + "m" + "t".repeat(160);
    const { text: out, truncated } = boundedText(text);
    expect(truncated).toBe(true);
    expect(out).toBe("h".repeat(320) + TRIM_MARKER + "t".repeat(160));
    expect(bytes(boundedText("z".repeat(50_000)).text)).toBeLessThan(600);
  });

  it("boundedPreview with tail 0 never adds a tail", () => {
    expect(boundedPreview("q".repeat(5000), 10, 0).text).toBe("q".repeat(10) + TRIM_MARKER);
  });
});
