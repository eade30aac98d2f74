import fs from "node:fs/promises";
import path from "node:path";

import { beforeAll, describe, expect, it } from "vitest";

import { basicT1Chain, buildTwoTurnWorkspace, PROJECT } from "@/lib/evidence/__fixtures__/chains";
import {
  createEvidenceChainAction,
  deleteEvidenceChainAction,
  getEvidenceCardAction,
  replaceEvidenceChainAction,
} from "@/server/actions/evidence";

let root = "";
beforeAll(async () => {
  root = await buildTwoTurnWorkspace();
  process.env.CASEFILE_WORKSPACE = root;
});

const ids = { project_key: PROJECT, session_ref: "S0001" };

describe("evidence server actions", () => {
  it("create, stale replace (conflict as data), reload, replace, delete", async () => {
    const loaded = await getEvidenceCardAction(ids);
    expect(loaded).toMatchObject({ ok: true, data: { version: "absent", status: "missing" } });
    const created = await createEvidenceChainAction({ ...ids, evidence_chain: basicT1Chain() });
    expect(created).toMatchObject({ ok: true, data: { status: "appended", turn_ref: "T0001" } });

    const stale = await replaceEvidenceChainAction({ ...ids, evidence_chain: basicT1Chain(), base_version: "absent" });
    expect(stale).toMatchObject({ ok: true, data: { status: "conflict", errors: [{ path: "base_version", hint: "reload the card, re-apply your edit, and save again" }] } });

    const view = await getEvidenceCardAction(ids);
    const version = view.ok ? view.data.version : "";
    const replaced = await replaceEvidenceChainAction({ ...ids, evidence_chain: { ...basicT1Chain(), materiality: "minor" }, base_version: version });
    expect(replaced).toMatchObject({ ok: true, data: { status: "replaced" } });
    const deleted = await deleteEvidenceChainAction({ ...ids, turn_ref: "T0001", base_version: replaced.ok && replaced.data.status === "replaced" ? replaced.data.version : "" });
    expect(deleted).toMatchObject({ ok: true, data: { status: "deleted" } });
  });

  it("returns structural rejections as data, keeping every {path, message, hint}", async () => {
    const result = await createEvidenceChainAction({ ...ids, evidence_chain: { ...basicT1Chain(), turn_ref: "T0009" } });
    expect(result).toEqual({
      ok: true,
      data: { status: "invalid", errors: [{ path: "evidence_chain.turn_ref", message: "unknown turn_ref 'T0009' in the session index", hint: "use the assigned turn_ref from the target turn" }] },
    });
  });

  it("maps AppErrors to { ok: false } with their code", async () => {
    expect(await getEvidenceCardAction({ ...ids, session_ref: "S0404" })).toMatchObject({ ok: false, error: { code: "not_found" } });
    const meta = path.join(root, "metadata.json");
    await fs.writeFile(meta, JSON.stringify({ ...JSON.parse(await fs.readFile(meta, "utf8")), schema_version: 2 }));
    expect(await createEvidenceChainAction({ ...ids, evidence_chain: basicT1Chain() })).toMatchObject({ ok: false, error: { code: "conflict" } });
  });
});
