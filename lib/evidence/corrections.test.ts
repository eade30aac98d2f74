/** Tests of replacing and deleting evidence chains, and per-turn conflicts. */
import fs from "node:fs/promises";

import { beforeEach, describe, expect, it } from "vitest";

import { basicT1Chain, basicT2Chain, buildTwoTurnWorkspace, cardBytes, cardFile, PROJECT } from "@/lib/evidence/__fixtures__/chains";
import { cardVersion, turnChainVersion } from "@/lib/evidence/card-file";
import { deleteEvidenceChain, replaceEvidenceChain } from "@/lib/evidence/corrections";
import { getEvidenceCard } from "@/lib/evidence/get-evidence-card";
import { writeEvidence } from "@/lib/evidence/write-evidence";
import { createCoreContext, type CoreContext } from "@/lib/context";

type Chain = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests poke arbitrary shapes into drafts

let root = "";
let ctx: CoreContext;
const ids = { project_key: PROJECT, session_ref: "S0001" };
beforeEach(async () => {
  root = await buildTwoTurnWorkspace();
  ctx = createCoreContext(root);
  await writeEvidence(ctx, { ...ids, evidence_chain: basicT1Chain() });
  await writeEvidence(ctx, { ...ids, evidence_chain: basicT2Chain() });
});

const version = async () => (await getEvidenceCard(ctx, PROJECT, "S0001")).version;
const corrected = (mutate: (c: Chain) => void) => {
  const c: Chain = basicT1Chain();
  mutate(c);
  return c;
};

describe("replaceEvidenceChain", () => {
  it("replaces the turn's chain in place and returns the new version", async () => {
    const base = await version();
    const chain = corrected((c) => (c.trigger.summary = "Corrected by a reviewer."));
    const result = await replaceEvidenceChain(ctx, { ...ids, evidence_chain: chain, base_version: base });
    const bytes = (await cardBytes(root))!;
    expect(result).toEqual({ status: "replaced", ...ids, turn_ref: "T0001", version: cardVersion(bytes) });
    expect(JSON.parse(bytes.toString()).evidence_chains).toEqual([chain, basicT2Chain()]);
  });

  it("refuses a stale base_version with a conflict and changes nothing", async () => {
    const stale = await version();
    await deleteEvidenceChain(ctx, { ...ids, turn_ref: "T0002", base_version: stale });
    const before = await cardBytes(root);
    const current = cardVersion(before!);
    const result = await replaceEvidenceChain(ctx, { ...ids, evidence_chain: corrected((c) => (c.materiality = "minor")), base_version: stale });
    expect(result).toEqual({
      status: "conflict",
      errors: [
        {
          path: "base_version",
          message: `the evidence card changed since you loaded it (loaded version ${stale.slice(0, 12)}, current version ${current.slice(0, 12)})`,
          hint: "reload the card, re-apply your edit, and save again",
        },
      ],
      current_version: current,
    });
    expect(await cardBytes(root)).toEqual(before);
  });

  it("validates like write_evidence, minus the duplicate rule for the replaced chain", async () => {
    const base = await version();
    const bad = corrected((c) => (c.outcomes[0].citations = [{ lines: "2-2" }]));
    expect(await replaceEvidenceChain(ctx, { ...ids, evidence_chain: bad, base_version: base })).toEqual({
      status: "invalid",
      errors: [{ path: "evidence_chain.outcomes[0].citations[0].lines", message: "a material outcome cites only trigger evidence", hint: "cite agent reaction evidence, not only the trigger lines" }],
    });
    const shape = corrected((c) => (c.trigger.summary = " "));
    expect(await replaceEvidenceChain(ctx, { ...ids, evidence_chain: shape, base_version: base })).toMatchObject({ status: "invalid", errors: [{ path: "evidence_chain.trigger.summary" }] });
    expect(await version()).toBe(base);
  });

  it("refuses to replace a turn that has no chain", async () => {
    const base = await version();
    await deleteEvidenceChain(ctx, { ...ids, turn_ref: "T0001", base_version: base });
    expect(await replaceEvidenceChain(ctx, { ...ids, evidence_chain: basicT1Chain(), base_version: await version() })).toEqual({
      status: "invalid",
      errors: [{ path: "evidence_chain.turn_ref", message: "turn_ref 'T0001' has no committed evidence chain to replace", hint: "create the chain instead, or reload the card" }],
    });
  });

  it("requires a base_version", async () => {
    expect(await replaceEvidenceChain(ctx, { ...ids, evidence_chain: basicT1Chain() })).toEqual({
      status: "invalid",
      errors: [{ path: "base_version", message: "base_version must be a non-empty string", hint: "pass the version returned when the card was loaded (getEvidenceCard)" }],
    });
  });

  it("collapses duplicate chains of the replaced turn written by another tool", async () => {
    const card = JSON.parse((await cardBytes(root))!.toString());
    card.evidence_chains.push(basicT1Chain());
    await fs.writeFile(cardFile(root), JSON.stringify(card, null, 2));
    const chain = corrected((c) => (c.materiality = "minor"));
    await replaceEvidenceChain(ctx, { ...ids, evidence_chain: chain, base_version: await version() });
    const view = await getEvidenceCard(ctx, PROJECT, "S0001");
    expect(view.chains.map((c) => c.turn_ref)).toEqual(["T0001", "T0002"]);
    expect(view.status).toBe("complete");
  });
});

describe("deleteEvidenceChain", () => {
  it("removes the turn's chain and keeps the card", async () => {
    const result = await deleteEvidenceChain(ctx, { ...ids, turn_ref: "T0001", base_version: await version() });
    expect(result).toMatchObject({ status: "deleted", ...ids, turn_ref: "T0001" });
    const view = await getEvidenceCard(ctx, PROJECT, "S0001");
    expect(view.turns.map((t) => t.state)).toEqual(["none", "chain"]);
    expect(view.version).toBe(result.status === "deleted" ? result.version : "");
    await deleteEvidenceChain(ctx, { ...ids, turn_ref: "T0002", base_version: view.version });
    expect(JSON.parse((await cardBytes(root))!.toString()).evidence_chains).toEqual([]);
  });

  it("refuses a stale base_version (an agent appended meanwhile)", async () => {
    const base = await version();
    await fs.writeFile(cardFile(root), `${(await cardBytes(root))!.toString()} `);
    const before = await cardBytes(root);
    const result = await deleteEvidenceChain(ctx, { ...ids, turn_ref: "T0001", base_version: base });
    expect(result).toMatchObject({ status: "conflict", current_version: cardVersion(before!), errors: [{ path: "base_version" }] });
    expect(await cardBytes(root)).toEqual(before);
  });

  it("reports a turn without a chain, and an absent card by its 'absent' version", async () => {
    expect(await deleteEvidenceChain(ctx, { ...ids, turn_ref: "T0007", base_version: await version() })).toEqual({
      status: "invalid",
      errors: [{ path: "turn_ref", message: "turn_ref 'T0007' has no committed evidence chain", hint: "reload the card; only a committed chain can be deleted" }],
    });
    expect((await getEvidenceCard(ctx, PROJECT, "S0002")).version).toBe("absent");
    expect(await deleteEvidenceChain(ctx, { project_key: PROJECT, session_ref: "S0002", turn_ref: "T0001", base_version: "absent" })).toMatchObject({
      status: "invalid",
      errors: [{ path: "turn_ref" }],
    });
  });
});

describe("per-turn conflicts (issue 12)", () => {
  const turnVersion = async (turnRef: string) => (await getEvidenceCard(ctx, PROJECT, "S0001")).turns.find((t) => t.turn_ref === turnRef)!.chain_version;
  /** The card and T0001 versions as the editor loads them, with T0002 absent (the agent appends it later). */
  const loadWithoutT2 = async () => {
    await deleteEvidenceChain(ctx, { ...ids, turn_ref: "T0002", base_version: await version() });
    return { base_version: await version(), base_chain_version: await turnVersion("T0001") };
  };

  it("reports each turn's chain_version, which only that turn's changes move", async () => {
    const view = await getEvidenceCard(ctx, PROJECT, "S0001");
    const [t1, t2] = view.turns;
    expect(t1!.chain_version).toBe(turnChainVersion([basicT1Chain()], "T0001"));
    expect(t2!.chain_version).not.toBe(t1!.chain_version);
    await deleteEvidenceChain(ctx, { ...ids, turn_ref: "T0002", base_version: view.version });
    expect(await turnVersion("T0002")).toBe("absent");
    expect(await turnVersion("T0001")).toBe(t1!.chain_version);
    expect((await getEvidenceCard(ctx, PROJECT, "S0002")).turns.every((t) => t.chain_version === "absent")).toBe(true);
  });

  it("a replace of T0001 survives an agent appending T0002 meanwhile, keeping the append", async () => {
    const base = await loadWithoutT2();
    expect(await writeEvidence(ctx, { ...ids, evidence_chain: basicT2Chain() })).toMatchObject({ status: "appended" });
    const chain = corrected((c) => (c.trigger.summary = "Corrected while the agent wrote T0002."));
    const result = await replaceEvidenceChain(ctx, { ...ids, evidence_chain: chain, ...base });
    expect(result).toMatchObject({ status: "replaced", turn_ref: "T0001" });
    expect(JSON.parse((await cardBytes(root))!.toString()).evidence_chains).toEqual([chain, basicT2Chain()]);
  });

  it("a delete of T0001 survives an agent appending T0002 meanwhile", async () => {
    const base = await loadWithoutT2();
    await writeEvidence(ctx, { ...ids, evidence_chain: basicT2Chain() });
    expect(await deleteEvidenceChain(ctx, { ...ids, turn_ref: "T0001", ...base })).toMatchObject({ status: "deleted" });
    expect(JSON.parse((await cardBytes(root))!.toString()).evidence_chains).toEqual([basicT2Chain()]);
  });

  it("still refuses a lost update of the same chain, naming the turn", async () => {
    const base = { base_version: await version(), base_chain_version: await turnVersion("T0001") };
    const first = await replaceEvidenceChain(ctx, { ...ids, evidence_chain: corrected((c) => (c.materiality = "minor")), ...base });
    expect(first).toMatchObject({ status: "replaced" });
    const before = await cardBytes(root);
    const second = await replaceEvidenceChain(ctx, { ...ids, evidence_chain: corrected((c) => (c.trigger.summary = "A second reviewer.")), ...base });
    expect(second).toEqual({
      status: "conflict",
      errors: [{ path: "base_chain_version", message: "the evidence chain of turn 'T0001' changed since you loaded it", hint: "reload the card, re-apply your edit, and save again" }],
      current_version: cardVersion(before!),
      current_chain_version: await turnVersion("T0001"),
    });
    expect(await deleteEvidenceChain(ctx, { ...ids, turn_ref: "T0001", ...base })).toMatchObject({ status: "conflict", errors: [{ path: "base_chain_version" }] });
    expect(await cardBytes(root)).toEqual(before);
  });

  it("refuses a chain deleted meanwhile as a conflict, not as a missing chain", async () => {
    const base = { base_version: await version(), base_chain_version: await turnVersion("T0001") };
    await deleteEvidenceChain(ctx, { ...ids, turn_ref: "T0001", ...base });
    expect(await replaceEvidenceChain(ctx, { ...ids, evidence_chain: basicT1Chain(), ...base })).toMatchObject({
      status: "conflict",
      current_chain_version: "absent",
    });
  });

  it("without base_chain_version any card change is still a conflict", async () => {
    const { base_version } = await loadWithoutT2();
    await writeEvidence(ctx, { ...ids, evidence_chain: basicT2Chain() });
    expect(await replaceEvidenceChain(ctx, { ...ids, evidence_chain: basicT1Chain(), base_version })).toMatchObject({ status: "conflict", errors: [{ path: "base_version" }] });
  });

  it("rejects a base_chain_version that is not a non-empty string", async () => {
    expect(await replaceEvidenceChain(ctx, { ...ids, evidence_chain: basicT1Chain(), base_version: await version(), base_chain_version: 7 })).toEqual({
      status: "invalid",
      errors: [
        {
          path: "base_chain_version",
          message: "base_chain_version must be a non-empty string when given",
          hint: "pass the turn's chain_version returned when the card was loaded (getEvidenceCard)",
        },
      ],
    });
  });
});
