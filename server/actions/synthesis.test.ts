import fs from "node:fs/promises";
import path from "node:path";

import { beforeAll, describe, expect, it } from "vitest";

import { buildBasicWorkspace, PROJECT, turn } from "@/lib/synthesis/__fixtures__/synthesis-workspace";
import { createOperatorItemAction } from "@/server/actions/synthesis";

let root = "";
beforeAll(async () => {
  root = await buildBasicWorkspace();
  process.env.CASEFILE_WORKSPACE = root;
});

const exclusion = { project_key: PROJECT, kind: "excluded_with_reason" as const, covered_turns: [turn("S0001/T0002")], title: "Small talk", reason: "", confidence: "low" as const };

describe("synthesis server action", () => {
  it("returns a validation failure as data, then commits the corrected item", async () => {
    expect(await createOperatorItemAction(exclusion)).toEqual({
      ok: true,
      data: {
        status: "invalid",
        errors: [{ path: "work_item.reason", message: "work_item.reason must be a non-empty string", hint: "provide a concise non-empty string" }],
        uncovered_turns: ["S0001/T0001", "S0001/T0002", "S0001/T0003", "S0002/T0001"].map(turn),
      },
    });
    expect(await createOperatorItemAction({ ...exclusion, reason: "Not project work." })).toEqual({
      ok: true,
      data: { status: "appended", project_key: PROJECT, work_item_ref: "W0001", uncovered_turns: ["S0001/T0001", "S0001/T0003", "S0002/T0001"].map(turn) },
    });
  });

  it("maps AppErrors to { ok: false } with their code", async () => {
    const meta = path.join(root, "metadata.json");
    await fs.writeFile(meta, JSON.stringify({ ...JSON.parse(await fs.readFile(meta, "utf8")), schema_version: 2 }));
    expect(await createOperatorItemAction({ ...exclusion, reason: "r" })).toMatchObject({ ok: false, error: { code: "conflict" } });
  });
});
