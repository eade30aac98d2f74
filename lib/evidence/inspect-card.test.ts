/** Tests of card completeness (inspect_evidence_card) and evidence coverage. */
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { basicT1Chain, basicT2Chain, buildTwoTurnWorkspace, cardFile, PROJECT } from "@/lib/evidence/__fixtures__/chains";
import { evidenceCoverage } from "@/lib/evidence/coverage";
import { getEvidenceCard } from "@/lib/evidence/get-evidence-card";
import { writeEvidence } from "@/lib/evidence/write-evidence";
import { createCoreContext } from "@/lib/context";
import { copyFixtureWorkspace, HAS_SHARED, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

const RG = "ReportGenerator-e6ff7eeda632";

async function putCard(root: string, content: unknown, sessionRef = "S0001"): Promise<void> {
  await fs.mkdir(path.dirname(cardFile(root, sessionRef)), { recursive: true });
  await fs.writeFile(cardFile(root, sessionRef), typeof content === "string" ? content : JSON.stringify(content));
}
const card = (chains: unknown[]) => ({ schema_version: 1, project_key: PROJECT, session_ref: "S0001", evidence_chains: chains });

describe("card completeness (contract §2.5, inspect_evidence_card)", () => {
  it("reports a missing card and every turn as missing", async () => {
    const root = await buildTwoTurnWorkspace();
    const view = await getEvidenceCard(createCoreContext(root), PROJECT, "S0001");
    expect(view).toMatchObject({ status: "missing", version: "absent", card: null, errors: [`missing evidence card: ${cardFile(root)}`] });
    expect(view.turns.map((t) => [t.turn_ref, t.state, t.chain_index])).toEqual([["T0001", "none", null], ["T0002", "none", null]]);
  });

  it("reads malformed JSON as {}: the envelope errors", async () => {
    const root = await buildTwoTurnWorkspace();
    await putCard(root, "{oops");
    const view = await getEvidenceCard(createCoreContext(root), PROJECT, "S0001");
    expect(view.status).toBe("invalid");
    expect(view.errors).toEqual(["schema_version must be 1", `project_key must be '${PROJECT}'`, "session_ref must be 'S0001'", "evidence_chains must be a list"]);
    expect(view.card_issues.map((i) => i.path)).toEqual(["evidence_card", "evidence_card.schema_version", "evidence_card.project_key", "evidence_card.session_ref", "evidence_card.evidence_chains"]);
  });

  it("reports non-object, invalid, unknown-turn, out-of-span and duplicate chains in card order", async () => {
    const root = await buildTwoTurnWorkspace();
    const badSummary = { ...basicT2Chain(), trigger: { type: "resume_or_continue", summary: "" } };
    const unknownTurn = { ...basicT2Chain(), turn_ref: "T0042" };
    const outside = { ...basicT1Chain(), terminal_state: { type: "material_result", summary: "x", citations: [{ lines: "9-10" }] } };
    await putCard(root, card(["nope", badSummary, unknownTurn, outside, basicT1Chain()]));
    const view = await getEvidenceCard(createCoreContext(root), PROJECT, "S0001");
    expect(view.status).toBe("invalid");
    expect(view.errors).toEqual([
      "evidence_chains[0] must be a JSON object",
      "evidence_chain.trigger.summary must be a non-empty string",
      "unknown turn_ref 'T0042' in the current session index",
      "line span 9-10 is outside turn T0001 span 2-8",
      "duplicate turn_ref 'T0001'",
    ]);
    expect(view.chains.map((c) => c.issues.map((i) => i.path))).toEqual([
      ["evidence_chain"],
      ["evidence_chain.trigger.summary"],
      ["evidence_chain.turn_ref"],
      ["evidence_chain.terminal_state.citations[0].lines"],
      ["evidence_chain.turn_ref"],
    ]);
    expect(view.turns.map((t) => [t.turn_ref, t.state, t.chain_index])).toEqual([["T0001", "chain", 3], ["T0002", "chain", 1]]);
  });

  it("treats a valid card that lacks turns as a checkpoint: missing turn_ref(s): T0002", async () => {
    const root = await buildTwoTurnWorkspace();
    await writeEvidence(createCoreContext(root), { project_key: PROJECT, session_ref: "S0001", evidence_chain: basicT1Chain() });
    const view = await getEvidenceCard(createCoreContext(root), PROJECT, "S0001");
    expect(view).toMatchObject({ status: "partial", errors: ["missing turn_ref(s): T0002"], card_issues: [] });
    expect(view.chains).toEqual([{ index: 0, turn_ref: "T0001", chain: basicT1Chain(), issues: [] }]);
  });

  it("throws not_found for an unknown project or session, with the inspector's messages", async () => {
    const root = await buildTwoTurnWorkspace();
    await expect(getEvidenceCard(createCoreContext(root), "Nope-000000000000", "S0001")).rejects.toMatchObject({ code: "not_found", message: "unknown project_key 'Nope-000000000000' in prepared workspace" });
    await expect(getEvidenceCard(createCoreContext(root), PROJECT, "S0404")).rejects.toMatchObject({ code: "not_found", message: `unknown session_ref 'S0404' for project '${PROJECT}'` });
  });
});

describe("evidence coverage per session and project", () => {
  it("counts turns with a chain over indexed turns", async () => {
    const root = await buildTwoTurnWorkspace();
    const ctx = createCoreContext(root);
    await writeEvidence(ctx, { project_key: PROJECT, session_ref: "S0001", evidence_chain: basicT2Chain() });
    expect(await evidenceCoverage(ctx, PROJECT)).toEqual({
      project_key: PROJECT,
      sessions: [
        { session_ref: "S0001", turns_with_chain: 1, indexed_turns: 2, status: "partial" },
        { session_ref: "S0002", turns_with_chain: 0, indexed_turns: 1, status: "missing" },
      ],
      turns_with_chain: 1,
      indexed_turns: 3,
      sessions_complete: 0,
    });
  });
});

describe.skipIf(!HAS_SHARED)("prompt-diary fixtures", () => {
  if (!HAS_SHARED) console.warn(SKIP_SHARED_MESSAGE);
  const scope = "project-synthesis/disposition-scope/workspace";

  it("loads and validates every disposition-scope card: complete, no errors", async () => {
    const root = await copyFixtureWorkspace(scope);
    const ctx = createCoreContext(root);
    const coverage = await evidenceCoverage(ctx, RG);
    expect(coverage).toMatchObject({ turns_with_chain: 14, indexed_turns: 14, sessions_complete: 9 });
    for (const s of coverage.sessions) {
      const view = await getEvidenceCard(ctx, RG, s.session_ref);
      expect({ ref: s.session_ref, status: view.status, errors: view.errors }).toEqual({ ref: s.session_ref, status: "complete", errors: [] });
    }
  });

  it("rewrites every disposition-scope card byte for byte through write_evidence", async () => {
    const root = await copyFixtureWorkspace(scope);
    const evidenceDir = path.join(root, "projects", RG, "evidence");
    const originals = new Map<string, Buffer>();
    for (const name of await fs.readdir(evidenceDir)) originals.set(name, await fs.readFile(path.join(evidenceDir, name)));
    await fs.rm(evidenceDir, { recursive: true });
    const ctx = createCoreContext(root);
    for (const [name, bytes] of originals) {
      const sessionRef = name.replace(/\.json$/, "");
      for (const chain of JSON.parse(bytes.toString()).evidence_chains) {
        expect(await writeEvidence(ctx, { project_key: RG, session_ref: sessionRef, evidence_chain: chain })).toMatchObject({ status: "appended" });
      }
      expect((await fs.readFile(path.join(evidenceDir, name))).toString()).toBe(bytes.toString());
      expect((await getEvidenceCard(ctx, RG, sessionRef)).status).toBe("complete");
    }
  });

  it("writes the basic-two-turns chains, and the card passes the completeness check", async () => {
    const root = await copyFixtureWorkspace("evidence-extraction/basic-two-turns/workspace");
    // NOTE: the fixture copy lacks metadata.json (see fixtures README); add the schema-3 one.
    await fs.writeFile(path.join(root, "metadata.json"), JSON.stringify({ schema_version: 3, report_date: "2026-05-28", timezone: "UTC", status: "final" }));
    const ctx = createCoreContext(root);
    for (const chain of [basicT1Chain(), basicT2Chain()]) {
      expect(await writeEvidence(ctx, { project_key: RG, session_ref: "S0001", evidence_chain: chain })).toEqual({ status: "appended", project_key: RG, session_ref: "S0001", turn_ref: chain.turn_ref });
    }
    const view = await getEvidenceCard(ctx, RG, "S0001");
    expect(view).toMatchObject({ status: "complete", errors: [], card: { schema_version: 1, project_key: RG, session_ref: "S0001" } });
    expect(view.card).not.toHaveProperty("session_path");
  });
});
