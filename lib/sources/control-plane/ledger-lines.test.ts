/** Tests of forEachLedgerLine. */
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { forEachLedgerLine, splitLedgerText, type LedgerLine } from "@/lib/sources/control-plane/ledger-lines";
import { makeTempDir } from "@/lib/testing/shared";

async function lines(bytes: Buffer): Promise<LedgerLine[]> {
  const file = path.join(await makeTempDir("casefile-ledger-lines-"), "l.jsonl");
  await fs.writeFile(file, bytes);
  const out: LedgerLine[] = [];
  await forEachLedgerLine(file, (l) => out.push(l));
  return out;
}

describe("forEachLedgerLine", () => {
  it("splits on \\n only, as splitLedgerText does: a raw U+2028 stays in its line, a \\r is kept, a last line without \\n counts", async () => {
    const text = '{"a":"x\u2028y"}\n{"b":1}\r\n\n{"c":"é"}';
    expect(await lines(Buffer.from(text))).toEqual(splitLedgerText(text));
    expect((await lines(Buffer.from(text))).map((l) => [l.line, l.offset, l.bytes])).toEqual([[1, 0, 13], [2, 14, 8], [3, 23, 0], [4, 24, 10]]);
  });

  it("decodes invalid UTF-8 with replacement and passes nothing after a final \\n", async () => {
    expect(await lines(Buffer.from([0x7b, 0xff, 0x7d, 0x0a]))).toEqual([{ line: 1, offset: 0, bytes: 3, text: "{\ufffd}" }]);
    expect(await lines(Buffer.alloc(0))).toEqual([]);
  });
});
