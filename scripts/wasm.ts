/** Compiles the WebAssembly kernels' `.wat` sources with wabt into their checked-in `*-wasm.ts` byte modules (`npm run wasm`). */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import wabt from "wabt";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** A kernel: its text source, the generated module holding its bytes, and that module's export name (paths from the repo root). */
export type WasmKernel = { wat: string; out: string; exportName: string };

/** Every kernel the runtime loads (lib/jsonl/json-scan.ts, lib/forensics/simd-find.ts). */
export const KERNELS: readonly WasmKernel[] = [
  { wat: "lib/jsonl/json-scan.wat", out: "lib/jsonl/json-scan-wasm.ts", exportName: "JSON_SCAN_WASM" },
  { wat: "lib/forensics/simd-find.wat", out: "lib/forensics/simd-find-wasm.ts", exportName: "SIMD_FIND_WASM" },
];

/**
 * The binary of `kernel`'s `.wat` as wabt 1.0.39 assembles it (SIMD on, shortest LEB128s, no
 * name section), validated.
 * @throws Error with wabt's message when the text does not parse or validate.
 */
export async function compileWat(kernel: WasmKernel): Promise<Uint8Array> {
  const api = await wabt();
  const parsed = api.parseWat(path.basename(kernel.wat), readFileSync(path.join(ROOT, kernel.wat), "utf8"), { simd: true });
  try {
    parsed.resolveNames();
    parsed.validate();
    return parsed.toBinary({ canonicalize_lebs: true }).buffer;
  } finally {
    parsed.destroy();
  }
}

/** The text of `kernel`'s generated module for `bytes`: one exported base64 string. */
export function byteModuleSource(kernel: WasmKernel, bytes: Uint8Array): string {
  return [
    `/** The WebAssembly module compiled from ${kernel.wat}, base64 (written by \`npm run wasm\`; do not edit). */`,
    `export const ${kernel.exportName} =`,
    `  "${Buffer.from(bytes).toString("base64")}";`,
    "",
  ].join("\n");
}

/** Reads the checked-in text of `kernel`'s generated module. */
export function checkedInSource(kernel: WasmKernel): string {
  return readFileSync(path.join(ROOT, kernel.out), "utf8");
}

async function main(): Promise<void> {
  for (const kernel of KERNELS) {
    const bytes = await compileWat(kernel);
    writeFileSync(path.join(ROOT, kernel.out), byteModuleSource(kernel, bytes));
    console.log(`${kernel.wat} -> ${kernel.out} (${bytes.length} bytes)`);
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
