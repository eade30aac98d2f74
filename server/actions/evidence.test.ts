import fs from "node:fs/promises";
import path from "node:path";

import { beforeAll, describe, expect, it } from "vitest";

import { basicT1Chain, basicT2Chain, buildTwoTurnWorkspace, PROJECT } from "@/lib/evidence/__fixtures__/chains";
import {
  createEvidenceChainAction,
  deleteEvidenceChainAction,
  getEvidenceCardAction,
  replaceEvidenceChainAction,
} from "@/server/actions/evidence";
import { callToolHandler } from "@/server/http/tools";

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

  it("a reviewer's replace of T0001 survives an agent appending T0002 through the tool door; a second reviewer conflicts", async () => {
    const created = await createEvidenceChainAction({ ...ids, evidence_chain: basicT1Chain() });
    expect(created).toMatchObject({ ok: true, data: { status: "appended" } });
    const view = await getEvidenceCardAction(ids);
    if (!view.ok) throw new Error("card not loaded");
    const base = { base_version: view.data.version, base_chain_version: view.data.turns[0]!.chain_version };

    const agent = await callToolHandler(new Request("http://127.0.0.1/api/tools/write_evidence", { method: "POST", body: JSON.stringify({ ...ids, evidence_chain: basicT2Chain() }) }), {
      params: Promise.resolve({ tool: "write_evidence" }),
    });
    expect(await agent.json()).toMatchObject({ status: "appended", turn_ref: "T0002" });

    const reviewed = { ...basicT1Chain(), materiality: "minor" };
    expect(await replaceEvidenceChainAction({ ...ids, evidence_chain: reviewed, ...base })).toMatchObject({ ok: true, data: { status: "replaced" } });
    const after = await getEvidenceCardAction(ids);
    expect(after.ok && after.data.card?.evidence_chains).toEqual([reviewed, basicT2Chain()]);

    const second = await replaceEvidenceChainAction({ ...ids, evidence_chain: basicT1Chain(), ...base });
    expect(second).toMatchObject({ ok: true, data: { status: "conflict", errors: [{ path: "base_chain_version" }] } });
    await deleteEvidenceChainAction({ ...ids, turn_ref: "T0001", base_version: after.ok ? after.data.version : "" });
    const cleaned = await getEvidenceCardAction(ids);
    await deleteEvidenceChainAction({ ...ids, turn_ref: "T0002", base_version: cleaned.ok ? cleaned.data.version : "" });
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
