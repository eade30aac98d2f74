/** Control Plane verification: Python json.dumps parity, hash chain and Merkle rules. */
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { discoverControlPlane } from "@/lib/sources/control-plane/discover";
import { splitLedgerText } from "@/lib/sources/control-plane/ledger-lines";
import { parsePyJson, pyDumps, pyFloatRepr } from "@/lib/json/python-json";
import { ChainVerifier, merkleRoot, verifyControlPlane, verifyLedger } from "@/lib/sources/control-plane/verify";
import { HAS_SHARED, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

const CP_ROOT = path.join(SHARED_DIR, "corpus", "control-plane", "rabruni__Brain_Garden", "Control_Plane_v2");
const GOVERNANCE = path.join(CP_ROOT, "HOT", "ledger", "governance.jsonl");

function verifyText(text: string, file = "governance.jsonl") {
  const v = new ChainVerifier("governance");
  v.beginSegment(file);
  for (const l of splitLedgerText(text)) v.push(l);
  return v.finish();
}

describe("Python json.dumps parity", () => {
  it("writes floats as Python repr (values printed by CPython 3)", () => {
    const values = [15.0, 0.1, 1e-7, 1e16, 1e15, 123456789012345678.0, 0.0001, 0.00001, -0.0, 2.5e-5, 1.7976931348623157e308, 5e-324, 0.95, 100.0, 1234.5678, 1e22, -3.0e-10];
    expect(values.map(pyFloatRepr).join(", ")).toBe(
      "15.0, 0.1, 1e-07, 1e+16, 1000000000000000.0, 1.2345678901234568e+17, 0.0001, 1e-05, -0.0, 2.5e-05, 1.7976931348623157e+308, 5e-324, 0.95, 100.0, 1234.5678, 1e+22, -3e-10",
    );
  });

  it("sorts keys by code point, keeps non-ASCII, escapes like Python, keeps int vs float", () => {
    const src = '{"b": 1, "a": [1.0, -0, 10], "é": "ü\\u0001\\n\\"", "\\ud83d\\ude00": 2, "\\uffff": 3}';
    expect(pyDumps(parsePyJson(src), { ensureAscii: false, sortKeys: true })).toBe('{"a": [1.0, 0, 10], "b": 1, "é": "ü\\u0001\\n\\"", "\uffff": 3, "😀": 2}');
  });
});

describe("hash chain and Merkle rules", () => {
  it("Merkle root: empty, single, odd duplicated", () => {
    expect(merkleRoot([])).toBe("");
    expect(merkleRoot(["ab"])).toBe("ab");
    expect(merkleRoot(["a", "b", "c"])).toBe(merkleRoot([merkleRoot(["a", "b"]), merkleRoot(["c", "c"])]));
  });
});

describe.skipIf(!HAS_SHARED)(`real Control Plane ledgers ${HAS_SHARED ? "" : SKIP_SHARED_MESSAGE}`, () => {
  it("discovers the tier ledgers and per-session ledgers of the corpus root", async () => {
    const layout = await discoverControlPlane(CP_ROOT);
    expect(layout.ledgers.map((l) => l.id)).toEqual([
      "governance",
      "worker",
      "workorder",
      "llm",
      "SES-20260207-raymondbruni-fee74d2a/evidence",
      "SES-20260207-raymondbruni-fee74d2a/exec",
      "SES-CHAT-20260207-e7cba98f/chat",
    ]);
  });

  it("the governance ledger's 267 hashed entries all verify; its 2 legacy lines are reported as such", async () => {
    const layout = await discoverControlPlane(CP_ROOT);
    const result = await verifyLedger(layout.ledgers[0]!);
    expect(result).toMatchObject({ ledger: "governance", status: "ok", entries: 269, hashed: 267, verified: 267, legacy: 2, error_count: 0 });
    expect(result.issues.filter((i) => i.kind === "legacy").map((i) => i.line)).toEqual([211, 212]);
  });

  it("every corpus ledger verifies, per-session sha256:-prefixed chains included", async () => {
    const results = await verifyControlPlane(await discoverControlPlane(CP_ROOT));
    for (const r of results) expect(r, r.ledger).toMatchObject({ status: "ok", error_count: 0 });
    expect(results.find((r) => r.ledger.endsWith("/exec"))).toMatchObject({ hashed: 3, verified: 3 });
  });

  it("a one-byte change anywhere in a hashed line is reported at its line", async () => {
    const bytes = await fs.readFile(GOVERNANCE);
    const lineOf = (offset: number) => bytes.subarray(0, offset).filter((b) => b === 10).length + 1;
    const legacyLines = new Set([211, 212]);
    // Deterministic spread of positions over the whole file (LCG), skipping legacy lines.
    let seed = 12345;
    let checked = 0;
    while (checked < 40) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const pos = seed % bytes.length;
      const line = lineOf(pos);
      if (legacyLines.has(line) || bytes[pos] === 10) continue;
      const copy = Buffer.from(bytes);
      copy[pos] = copy[pos]! ^ 1;
      const result = verifyText(copy.toString("utf8"));
      expect(result.status, `byte ${pos}`).toBe("broken");
      expect(result.first_broken?.line, `byte ${pos}`).toBe(line);
      checked += 1;
    }
  });

  it("a one-byte change in each of the 267 hashed lines is reported at that line", async () => {
    const bytes = await fs.readFile(GOVERNANCE);
    const starts = [0];
    for (let i = 0; i < bytes.length; i += 1) if (bytes[i] === 10 && i + 1 < bytes.length) starts.push(i + 1);
    expect(starts).toHaveLength(269);
    let checked = 0;
    for (let n = 0; n < starts.length; n += 1) {
      const line = n + 1;
      if (line === 211 || line === 212) continue; // legacy lines carry no hash
      const nl = bytes.indexOf(10, starts[n]!);
      const end = nl < 0 ? bytes.length : nl; // the line is bytes [start, end)
      // A different spot in each line: start, middle and end in turn.
      const pos = [starts[n]!, (starts[n]! + end) >> 1, end - 1][n % 3]!;
      const copy = Buffer.from(bytes);
      copy[pos] = copy[pos]! ^ 2;
      const result = verifyText(copy.toString("utf8"));
      expect(result.first_broken?.line, `line ${line}, byte ${pos}`).toBe(line);
      checked += 1;
    }
    expect(checked).toBe(267);
  });

  it("a changed line ending is reported at its line too", async () => {
    const text = await fs.readFile(GOVERNANCE, "utf8");
    const at = text.indexOf("\n", text.indexOf("\n") + 1); // end of line 2
    const result = verifyText(`${text.slice(0, at)}\r${text.slice(at)}`);
    expect(result.first_broken?.line).toBe(2);
  });
});
