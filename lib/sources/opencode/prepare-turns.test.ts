/** OpenCode's turns-only read for prepare (parse.ts prepareTurns) against the full read, and the export's objects. */
import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

import { jsonLine, preparedTurns, type ExportedLines } from "@/lib/sources/common/agent-source";
import type { JsonObject } from "@/lib/sources/common/json-object";
import { buildFixtureDatabase } from "@/lib/sources/opencode/__fixtures__/fixture-db";
import { parseLines, PART_TYPES, prepareTurns } from "@/lib/sources/opencode/parse";
import { opencodeSource } from "@/lib/sources/opencode/source";
import { seededRandom } from "@/lib/testing/random";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

if (!HAS_SHARED) console.warn(SKIP_SHARED_MESSAGE);

/** The turns-only read, checked equal to the full read of the lines (parsed, not the objects). */
function compare(exported: ExportedLines, file: string): void {
  const fast = prepareTurns(exported, file);
  expect(fast).not.toBeNull();
  expect(fast).toEqual(preparedTurns(parseLines(exported.lines, file)));
  // The full read given the objects reads what it reads from the lines.
  expect(parseLines(exported.lines, file, exported.objects)).toEqual(parseLines(exported.lines, file));
}

/** Every session the source finds under `root`, exported. */
async function exportsUnder(root: string): Promise<{ exported: ExportedLines; file: string }[]> {
  const { sessions } = await opencodeSource.discover(root);
  expect(sessions.length).toBeGreaterThan(0);
  return Promise.all(sessions.map(async (s) => ({ exported: await opencodeSource.exportLines(s), file: s.fileName })));
}

let dir: string | null = null;
afterEach(async () => {
  if (dir !== null) await fs.rm(dir, { recursive: true, force: true });
  dir = null;
});

describe("OpenCode prepareTurns on what the exporter makes", () => {
  it.skipIf(!HAS_SHARED)("equals the full read for every corpus session (database and storage)", async () => {
    for (const { exported, file } of await exportsUnder(path.join(SHARED_DIR, "corpus", "agents-home", ".local", "share", "opencode"))) {
      expect(exported.objects).toHaveLength(exported.lines.length);
      compare(exported, file);
    }
  });

  it("equals the full read for every session of the fixture database (WAL, odd rows)", async () => {
    dir = await makeTempDir("casefile-opencode-turns-");
    const { file, writer } = buildFixtureDatabase(dir);
    try {
      for (const { exported, file: name } of await exportsUnder(file)) compare(exported, name);
    } finally {
      writer.close();
    }
  });

  it("is null without the export's objects, and the export gives none when data's `__proto__` key made an object no plain one", async () => {
    expect(prepareTurns({ lines: [jsonLine({ id: "ses_x" })], warnings: [] }, "x.jsonl")).toBeNull();
    dir = await makeTempDir("casefile-opencode-turns-");
    const { file, writer } = buildFixtureDatabase(dir);
    try {
      const { sessions } = await opencodeSource.discover(file);
      const target = sessions[0]!.sourceSessionId;
      writer.prepare("UPDATE message SET data = ? WHERE session_id = ?").run('{"__proto__":{"role":"user"},"role":"assistant","time":{"created":1}}', target);
      const exported = await opencodeSource.exportLines(sessions[0]!);
      expect(exported.objects).toBeUndefined();
      expect(prepareTurns(exported, "x.jsonl")).toBeNull();
    } finally {
      writer.close();
    }
  });
});

/** A generated session's objects: messages of any role, each with parts of known and unknown types, odd objects between. */
function generatedSession(r: () => number): JsonObject[] {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const objects: JsonObject[] = [{ id: "ses_g", directory: "/w", title: "G", time: { created: 1767225600000 } }];
  const count = Math.floor(r() * 12);
  for (let m = 1; m <= count; m++) {
    const id = r() < 0.1 ? "msg_1" : `msg_${m}`;
    objects.push({ id, sessionID: "ses_g", role: pick(["user", "user", "assistant", "system", "odd"]), time: { created: pick<unknown>([1767225601000 + m, "soon", null]) } });
    const parts = Math.floor(r() * 4);
    for (let p = 0; p < parts; p++) {
      const type = r() < 0.85 ? pick([...PART_TYPES]) : pick(["hologram", "toString", ""]);
      objects.push({ id: `prt_${m}_${p}`, sessionID: "ses_g", messageID: r() < 0.9 ? id : "msg_other", type, text: pick<unknown>(["fix it", "  ", "", 7]), synthetic: r() < 0.2, tokens: { input: 3, output: 1 } });
    }
    if (r() < 0.1) objects.push(pick<JsonObject>([{ id: "ses_second", directory: "/x" }, { other: "thing" }, { id: 4, role: 5 }]));
  }
  return objects;
}

describe("OpenCode prepareTurns on generated sessions (seeded)", () => {
  it("equals the full read", () => {
    for (let seed = 1; seed <= 400; seed++) {
      const objects = generatedSession(seededRandom(seed));
      const lines = objects.map(jsonLine);
      // Objects as the export gives them: what each line parses to (a half-written line would have none: null).
      compare({ lines, objects: lines.map((l) => JSON.parse(l) as JsonObject), warnings: [] }, `gen-${seed}.jsonl`);
    }
  });
});
