/** Tests of scanChunk and pendingTailBytes. */
import { describe, expect, it } from "vitest";
import { LineStartList, pendingTailBytes, scanChunk } from "@/lib/jsonl/line-scan";

function starts(bytes: Buffer, windowBytes?: number): number[] {
  const out = new LineStartList(1);
  out.push(0);
  expect(scanChunk(bytes, 0, true, bytes.length, out, windowBytes)).toBe(bytes.length);
  return Array.from(out.toArray());
}

describe("scanChunk", () => {
  it("finds every boundary kind with byte offsets just after it", () => {
    const bytes = Buffer.from([0x61, 0x0a, 0x62, 0x0d, 0x0a, 0x63, 0x0d, 0x64, 0x0b, 0x0c, 0x1c, 0x1d, 0x1e, 0xc2, 0x85, 0xe2, 0x80, 0xa8, 0xe2, 0x80, 0xa9, 0x65]);
    expect(starts(bytes)).toEqual([0, 2, 5, 7, 9, 10, 11, 12, 13, 15, 18, 21]);
  });

  it("ignores near misses: lone 0x85, C2 not followed by 85, E2 80 A7, A8 without E2 80", () => {
    const bytes = Buffer.from([0x85, 0xc2, 0xa0, 0xe2, 0x80, 0xa7, 0xc3, 0xa8, 0xe2, 0x81, 0xa8, 0x0a, 0x61]);
    expect(starts(bytes)).toEqual([0, 12]);
  });

  it("gives identical results for every scan window size", () => {
    const alphabet = [0x41, 0x0a, 0x0d, 0x0b, 0x1c, 0xc2, 0x85, 0xe2, 0x80, 0xa8, 0xa9, 0xff];
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 200; round++) {
      const bytes = Buffer.from(Array.from({ length: Math.floor(random() * 50) }, () => alphabet[Math.floor(random() * alphabet.length)]!));
      const expected = starts(bytes, 1 << 20);
      for (let windowBytes = 1; windowBytes <= 9; windowBytes++) {
        expect(starts(bytes, windowBytes), `${bytes.toString("hex")} window=${windowBytes}`).toEqual(expected);
      }
    }
  });

  it("leaves a pending tail unscanned when more data may follow", () => {
    const out = new LineStartList(1);
    expect(scanChunk(Buffer.from("a\nb\r"), 0, false, 100, out)).toBe(3);
    expect(Array.from(out.toArray())).toEqual([2]);
  });
});

describe("pendingTailBytes", () => {
  it("holds back bytes that may begin a boundary", () => {
    expect(pendingTailBytes(Buffer.from([0x61, 0x0d]))).toBe(1);
    expect(pendingTailBytes(Buffer.from([0x61, 0xc2]))).toBe(1);
    expect(pendingTailBytes(Buffer.from([0x61, 0xe2]))).toBe(1);
    expect(pendingTailBytes(Buffer.from([0x61, 0xe2, 0x80]))).toBe(2);
    expect(pendingTailBytes(Buffer.from([0xc2, 0x80]))).toBe(0);
    expect(pendingTailBytes(Buffer.from([0x61, 0x0a]))).toBe(0);
  });
});
