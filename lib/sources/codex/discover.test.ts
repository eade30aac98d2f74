/** Tests of discoverCodexSessions. */
import { mkdir, realpath, writeFile } from "node:fs/promises";
import path from "node:path";

import { beforeAll, describe, expect, it } from "vitest";

import { CODEX_SKIP_REASONS, discoverCodexSessions } from "@/lib/sources/codex/discover";
import { makeTempDir } from "@/lib/testing/shared";

describe("discoverCodexSessions", () => {
  let home = "";
  const p = (...parts: string[]) => path.join(home, ...parts);
  const rel = (files: { path: string }[]) => files.map((f) => path.relative(home, f.path));

  beforeAll(async () => {
    home = await realpath(await makeTempDir("casefile-codex-discover-"));
    const files = [
      "sessions/2026/05/12/rollout-2026-05-12T09-00-00-019e-b.jsonl",
      "sessions/2026/05/12/rollout-2026-05-12T08-00-00-019e-a.jsonl",
      "sessions/2026/04/30/rollout-2026-04-30T23-59-59-019d-z.jsonl",
      "sessions/2026/05/12/notes.txt",
      "archived_sessions/rollout-2025-12-01T10-00-00-019a-old.jsonl",
      "history.jsonl",
      "log/codex-tui.log",
    ];
    for (const file of files) {
      await mkdir(path.dirname(p(file)), { recursive: true });
      await writeFile(p(file), "{}\n");
    }
  });

  it("walks a sessions root's YYYY/MM/DD folders in POSIX path order, .jsonl only", async () => {
    const found = await discoverCodexSessions(p("sessions"));
    expect(rel(found.candidates)).toEqual([
      "sessions/2026/04/30/rollout-2026-04-30T23-59-59-019d-z.jsonl",
      "sessions/2026/05/12/rollout-2026-05-12T08-00-00-019e-a.jsonl",
      "sessions/2026/05/12/rollout-2026-05-12T09-00-00-019e-b.jsonl",
    ]);
    expect(found.candidates[0]!.fileStem).toBe("rollout-2026-04-30T23-59-59-019d-z");
    expect(found.skipped).toEqual([]);
  });

  it("reads the flat archived_sessions folder", async () => {
    expect(rel((await discoverCodexSessions(p("archived_sessions"))).candidates)).toEqual(["archived_sessions/rollout-2025-12-01T10-00-00-019a-old.jsonl"]);
  });

  it("reads a Codex home's sessions and archived_sessions, never its side files", async () => {
    const found = rel((await discoverCodexSessions(home)).candidates);
    expect(found).toHaveLength(4);
    expect(found[0]).toBe("archived_sessions/rollout-2025-12-01T10-00-00-019a-old.jsonl");
    expect(found).not.toContain("history.jsonl");
  });

  it("accepts a single file and reports a missing root or a non-.jsonl file", async () => {
    const one = p("sessions/2026/05/12/rollout-2026-05-12T08-00-00-019e-a.jsonl");
    expect((await discoverCodexSessions(one)).candidates).toEqual([{ path: one, fileStem: "rollout-2026-05-12T08-00-00-019e-a" }]);
    expect((await discoverCodexSessions(p("nope"))).skipped).toEqual([{ path: p("nope"), reason: CODEX_SKIP_REASONS.missingRoot }]);
    expect((await discoverCodexSessions(p("log/codex-tui.log"))).skipped).toEqual([{ path: p("log/codex-tui.log"), reason: CODEX_SKIP_REASONS.notJsonl }]);
  });

  it("walks any other directory recursively", async () => {
    expect((await discoverCodexSessions(p("sessions/2026/05"))).candidates).toHaveLength(2);
  });
});
