/** The WebAssembly kernels recompiled from their .wat equal the checked-in bytes. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SIMD_FIND_WASM } from "@/lib/forensics/simd-find-wasm";
import { JSON_SCAN_WASM } from "@/lib/jsonl/json-scan-wasm";
import { ESCAPES_AT, MAX_DEPTH, STACK_BYTES, TAPE_ARRAY, TAPE_AT, TAPE_CLOSE, TAPE_ENTRIES, TAPE_ITEM, TAPE_OPEN } from "@/lib/jsonl/json-scan";
import { byteModuleSource, checkedInSource, compileWat, KERNELS } from "@/scripts/wasm";

const checkedIn: Record<string, string> = { JSON_SCAN_WASM, SIMD_FIND_WASM };

describe("WebAssembly kernels (.wat compiled by wabt)", () => {
  for (const kernel of KERNELS) {
    it(`${kernel.wat} compiles to exactly the bytes checked in as ${kernel.out}`, async () => {
      const bytes = await compileWat(kernel);
      expect(WebAssembly.validate(new Uint8Array(bytes))).toBe(true);
      expect(Buffer.from(bytes).equals(Buffer.from(checkedIn[kernel.exportName]!, "base64"))).toBe(true);
      // The whole generated file, so `npm run wasm` on an unchanged .wat leaves git clean.
      expect(checkedInSource(kernel)).toBe(byteModuleSource(kernel, bytes));
    });
  }

  it("json-scan.wat uses the memory layout lib/jsonl/json-scan.ts declares", () => {
    const wat = readFileSync(new URL("./json-scan.wat", import.meta.url), "utf8");
    expect(wat).toContain(`(i32.const ${MAX_DEPTH} (; MAX_DEPTH ;))`);
    expect(wat).toContain(`(i32.const ${STACK_BYTES} (; member state ;))`);
    expect(wat).toContain(`(i32.const ${STACK_BYTES + 12} (; tape cursor ;))`);
    expect(wat).toContain(`(i32.const ${TAPE_AT + TAPE_ENTRIES * 12} (; tape end ;))`);
    expect(wat).toContain(`(data $escapes (i32.const ${ESCAPES_AT})`);
    for (const [flag, value] of [["TAPE_OPEN", TAPE_OPEN], ["TAPE_ARRAY", TAPE_ARRAY], ["TAPE_CLOSE", TAPE_CLOSE], ["TAPE_ITEM | TAPE_OPEN", TAPE_ITEM | TAPE_OPEN]] as const) {
      expect(wat).toContain(`(i32.const ${value} (; ${flag} ;))`);
    }
  });

  it("json-scan's escape table marks exactly the one-byte JSON escapes", () => {
    const memory = new WebAssembly.Memory({ initial: 1 });
    new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(JSON_SCAN_WASM, "base64")), { m: { mem: memory } });
    const table = new Uint8Array(memory.buffer, ESCAPES_AT, 256);
    const marked = [...table.keys()].filter((c) => table[c] === 1).map((c) => String.fromCharCode(c));
    expect(marked.sort()).toEqual(['"', "/", "\\", "b", "f", "n", "r", "t"].sort());
    expect(table.every((v) => v === 0 || v === 1)).toBe(true);
  });
});
