import fs from "node:fs/promises";
import path from "node:path";

import { afterEach, describe, expect, it, vi } from "vitest";

import { runLedger } from "@/server/cli/ledger-command";
import { scriptSession, writeControlPlaneRoot } from "@/lib/testing/control-plane-builder";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

/** Runs `casefile ledger verify ROOT` in process; returns its exit code and what it printed. */
async function verify(root: string, json = false): Promise<{ code: number; out: string }> {
  let out = "";
  const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  try {
    return { code: await runLedger(["verify", root], json), out };
  } finally {
    spy.mockRestore();
  }
}

afterEach(() => vi.restoreAllMocks());

describe("casefile ledger verify ROOT (issue 11, item 3)", () => {
  it("exits 0 on an intact root and 1 on a one-byte change, naming the ledger's first broken line", async () => {
    const root = await makeTempDir("casefile-cp-cli-");
    await writeControlPlaneRoot(root, scriptSession({ sessionId: "SES-C11A0001", start: 0, turns: [{ user: "hello", response: "Hi!" }] }));
    const ok = await verify(root);
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/✓ ho2m\s+ok/);

    const ho2m = path.join(root, "HO2", "ledger", "ho2m.jsonl");
    const lines = (await fs.readFile(ho2m, "utf8")).split("\n");
    lines[1] = lines[1]!.replace('"reason": "', '"reason": "!');
    await fs.writeFile(ho2m, lines.join("\n"));
    const broken = await verify(root);
    expect(broken.code).toBe(1);
    expect(broken.out).toMatch(/✗ ho2m\s+broken .*first broken: ho2m\.jsonl:2 hash_mismatch/);
    expect(broken.out).toMatch(/✓ governance\s+ok/);

    const json = JSON.parse((await verify(root, true)).out) as { ok: boolean; data: { ok: boolean; ledgers: { ledger: string; first_broken: { line: number } | null }[] } };
    expect(json.data.ok).toBe(false);
    expect(json.data.ledgers.find((l) => l.ledger === "ho2m")!.first_broken).toMatchObject({ line: 2 });
  });

  it("refuses a missing ROOT with a usage hint", async () => {
    await expect(runLedger(["verify"], false)).rejects.toMatchObject({ code: "invalid_input" });
  });

  it.skipIf(!HAS_SHARED)(`verifies the real corpus root: governance 267/267 hashed, 2 legacy ${HAS_SHARED ? "" : SKIP_SHARED_MESSAGE}`, async () => {
    const { code, out } = await verify(path.join(SHARED_DIR, "corpus", "control-plane", "rabruni__Brain_Garden", "Control_Plane_v2"));
    expect(code).toBe(0);
    expect(out).toMatch(/✓ governance\s+ok\s+269 entries, 267\/267 hashed verified, 2 legacy/);
  });
});
