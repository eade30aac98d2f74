/** Tests of write_evidence: create and append, stage B and stage C, rejected writes. */
import fs from "node:fs/promises";
import path from "node:path";

import { beforeEach, describe, expect, it } from "vitest";

import { basicT1Chain, basicT2Chain, buildTwoTurnWorkspace, cardBytes, cardFile, PROJECT } from "@/lib/evidence/__fixtures__/chains";
import { appendEvidenceChain, writeEvidence } from "@/lib/evidence/write-evidence";
import { createCoreContext, type CoreContext } from "@/lib/context";
import { isAppError } from "@/lib/errors";

type Chain = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests poke arbitrary shapes into drafts

let root = "";
let ctx: CoreContext;
beforeEach(async () => {
  root = await buildTwoTurnWorkspace();
  ctx = createCoreContext(root);
});

const write = (evidence_chain: unknown, over: Record<string, unknown> = {}) =>
  writeEvidence(ctx, { project_key: PROJECT, session_ref: "S0001", evidence_chain, ...over });
const withChange = (mutate: (c: Chain) => void, base: () => Chain = basicT1Chain) => {
  const c = base();
  mutate(c);
  return c;
};

describe("write_evidence: create and append (seed 000, contract §2.4)", () => {
  it("creates the card from project.json and the index row, then appends the chain", async () => {
    expect(await write(basicT1Chain())).toEqual({ status: "appended", project_key: PROJECT, session_ref: "S0001", turn_ref: "T0001" });
    const text = await fs.readFile(cardFile(root), "utf8");
    const card = JSON.parse(text);
    expect(Object.keys(card)).toEqual(["schema_version", "project_key", "session_ref", "evidence_chains"]);
    expect(card).toMatchObject({ schema_version: 1, project_key: PROJECT, session_ref: "S0001" });
    expect(card).not.toHaveProperty("session_path");
    expect(card.evidence_chains).toEqual([basicT1Chain()]);
    expect(text).toBe(`${JSON.stringify(card, null, 2)}\n`);
  });

  it("appends a second turn without modifying the first", async () => {
    await write(basicT1Chain());
    const first = JSON.parse((await cardBytes(root))!.toString()).evidence_chains[0];
    expect(await write(basicT2Chain())).toMatchObject({ status: "appended", turn_ref: "T0002" });
    const card = JSON.parse((await cardBytes(root))!.toString());
    expect(card.evidence_chains).toEqual([first, basicT2Chain()]);
  });

  it("keeps unknown card keys and their order when appending", async () => {
    await fs.mkdir(path.dirname(cardFile(root)), { recursive: true });
    await fs.writeFile(cardFile(root), JSON.stringify({ schema_version: 1, reviewer: "ana", project_key: PROJECT, session_ref: "S0001", evidence_chains: [], notes: { a: 1 } }));
    await write(basicT1Chain());
    const card = JSON.parse((await cardBytes(root))!.toString());
    expect(Object.keys(card)).toEqual(["schema_version", "reviewer", "project_key", "session_ref", "evidence_chains", "notes"]);
    expect(card.notes).toEqual({ a: 1 });
  });

  it("serializes the chain in canonical order with unknown keys dropped and absent lists as []", async () => {
    const chain = { materiality: "none", turn_ref: "T0002", x: 1, terminal_state: { summary: "s", type: "no_material" }, trigger: { summary: "t", type: "user_approval" } };
    await write(chain);
    const text = (await cardBytes(root))!.toString();
    expect(JSON.parse(text).evidence_chains[0]).toStrictEqual({
      turn_ref: "T0002",
      trigger: { type: "user_approval", summary: "t", quoted_messages: [], citations: [] },
      agent_reactions: [],
      outcomes: [],
      observed_checks: [],
      terminal_state: { type: "no_material", summary: "s", citations: [] },
      materiality: "none",
    });
    expect(Object.keys(JSON.parse(text).evidence_chains[0])).toEqual(["turn_ref", "trigger", "agent_reactions", "outcomes", "observed_checks", "terminal_state", "materiality"]);
  });

  it("returns the new card version to the editor's create", async () => {
    const result = await appendEvidenceChain(ctx, { project_key: PROJECT, session_ref: "S0001", evidence_chain: basicT1Chain() });
    expect(result).toMatchObject({ status: "appended", version: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });
});

describe("write_evidence: stage B, first failure alone", () => {
  it.each<[string, Record<string, unknown>, Chain, string, string, string]>([
    ["unknown project", { project_key: "Nope-000000000000" }, basicT1Chain(), "project_key", "unknown project_key 'Nope-000000000000'", "use the project_key from the prepared workspace"],
    ["unknown session", { session_ref: "S9999" }, basicT1Chain(), "session_ref", `unknown session_ref 'S9999' for project '${PROJECT}'`, "use a session_ref listed in sessions.index.jsonl"],
    ["unknown turn", {}, withChange((c) => (c.turn_ref = "T0009")), "evidence_chain.turn_ref", "unknown turn_ref 'T0009' in the session index", "use the assigned turn_ref from the target turn"],
    ["unknown project beats unknown session and turn", { project_key: "Nope-000000000000", session_ref: "S9" }, withChange((c) => (c.turn_ref = "T9")), "project_key", "unknown project_key 'Nope-000000000000'", "use the project_key from the prepared workspace"],
    ["unknown session beats unknown turn", { session_ref: "S9" }, withChange((c) => (c.turn_ref = "T9")), "session_ref", `unknown session_ref 'S9' for project '${PROJECT}'`, "use a session_ref listed in sessions.index.jsonl"],
    ["project_key not a string", { project_key: 7 }, basicT1Chain(), "project_key", "project_key must be a string", "use the project_key from the prepared workspace"],
    ["empty project_key (unknown, as in prompt-diary)", { project_key: "" }, basicT1Chain(), "project_key", "unknown project_key ''", "use the project_key from the prepared workspace"],
    ["session_ref missing", { session_ref: undefined }, basicT1Chain(), "session_ref", "session_ref must be a string", "use a session_ref listed in sessions.index.jsonl"],
  ])("%s", async (_label, over, chain, pathName, message, hint) => {
    expect(await write(chain, over)).toEqual({ status: "invalid", errors: [{ path: pathName, message, hint }] });
    expect(await cardBytes(root)).toBeNull();
  });

  it("rejects a duplicate turn without changing the card", async () => {
    await write(basicT1Chain());
    const before = await cardBytes(root);
    const again = withChange((c) => (c.trigger.summary = "a different chain for the same turn"));
    expect(await write(again)).toEqual({
      status: "invalid",
      errors: [{ path: "evidence_chain.turn_ref", message: "turn_ref 'T0001' already has a committed evidence chain (duplicate)", hint: "each turn may have only one evidence chain" }],
    });
    expect(await cardBytes(root)).toEqual(before);
  });

  it("runs stage A before stage B: an invalid chain for an unknown project reports the chain", async () => {
    const result = await write(withChange((c) => (c.materiality = "big")), { project_key: "Nope-000000000000" });
    expect(result).toMatchObject({ status: "invalid", errors: [{ path: "evidence_chain.materiality" }] });
  });

  it("reports a duplicate before stage C", async () => {
    await write(basicT1Chain());
    const result = await write(withChange((c) => (c.terminal_state.citations = [{ lines: "9-9" }])));
    expect(result).toMatchObject({ status: "invalid", errors: [{ message: "turn_ref 'T0001' already has a committed evidence chain (duplicate)" }] });
  });

  it("reports an unknown session when the project has no sessions.index.jsonl", async () => {
    await fs.rm(path.join(root, "projects", PROJECT, "sessions.index.jsonl"));
    expect(await write(basicT1Chain())).toMatchObject({ status: "invalid", errors: [{ path: "session_ref", message: `unknown session_ref 'S0001' for project '${PROJECT}'` }] });
  });

  it("fails hard, as prompt-diary's loader does, when project.json names another project_key", async () => {
    await fs.writeFile(path.join(root, "projects", PROJECT, "project.json"), JSON.stringify({ schema_version: 3, project_key: "Else-000000000000", project_label: "Else" }));
    await expect(write(basicT1Chain())).rejects.toMatchObject({ code: "parse_error", message: expect.stringContaining("project_key 'Else-000000000000' must match directory") });
    expect(await cardBytes(root)).toBeNull();
  });

  it("refuses a project without project.json (seed 000: the project dir contains project.json)", async () => {
    await fs.rm(path.join(root, "projects", PROJECT, "project.json"));
    expect(await write(basicT1Chain())).toEqual({
      status: "invalid",
      errors: [{ path: "project_key", message: `project '${PROJECT}' has no project.json in the prepared workspace`, hint: "re-run casefile prepare to restore project.json" }],
    });
  });
});

describe("write_evidence: stage C and rejected writes", () => {
  it("rejects citations outside the indexed turn, all of them, without touching the card", async () => {
    await write(basicT2Chain());
    const before = await cardBytes(root);
    const chain = withChange((c) => ((c.agent_reactions[0].citations = [{ lines: "1-5" }]), (c.terminal_state.citations = [{ lines: "9-10" }])));
    expect(await write(chain)).toEqual({
      status: "invalid",
      errors: [
        { path: "evidence_chain.agent_reactions[0].citations[0].lines", message: "line span 1-5 is outside turn T0001 span 2-8", hint: "cite only lines inside the indexed turn" },
        { path: "evidence_chain.terminal_state.citations[0].lines", message: "line span 9-10 is outside turn T0001 span 2-8", hint: "cite only lines inside the indexed turn" },
      ],
    });
    expect(await cardBytes(root)).toEqual(before);
  });

  it("rejects a material outcome citing only trigger evidence", async () => {
    expect(await write(withChange((c) => (c.outcomes[0].citations = [{ lines: "2-2" }])))).toEqual({
      status: "invalid",
      errors: [{ path: "evidence_chain.outcomes[0].citations[0].lines", message: "a material outcome cites only trigger evidence", hint: "cite agent reaction evidence, not only the trigger lines" }],
    });
    // Nothing on disk changed: not even an empty evidence/ directory or a lock file remains.
    expect(await fs.readdir(path.join(root, "projects", PROJECT))).not.toContain("evidence");
  });

  it.each([
    ['"2"', "2"],
    ["the integer 2", 2],
  ])("rejects the malformed span %s", async (_label, lines) => {
    expect(await write(withChange((c) => (c.trigger.citations = [{ lines }])))).toEqual({
      status: "invalid",
      errors: [{ path: "evidence_chain.trigger.citations[0].lines", message: "evidence_chain.trigger.citations[0].lines must be a numeric line span", hint: 'write the span as "start-end" with start <= end' }],
    });
  });

  it("rejects material_result without outcomes, invalid controlled values and empty summaries", async () => {
    const result = await write(withChange((c) => ((c.outcomes = []), (c.trigger.type = "request"), (c.agent_reactions[0].summary = ""))));
    expect(result.status === "invalid" && result.errors.map((e) => e.path)).toEqual([
      "evidence_chain.outcomes",
      "evidence_chain.trigger.type",
      "evidence_chain.agent_reactions[0].summary",
    ]);
  });
});

describe("write_evidence: Casefile's input and existing-card checks", () => {
  it("rejects an evidence_chain that is not an object", async () => {
    expect(await write("T0001")).toEqual({
      status: "invalid",
      errors: [
        {
          path: "evidence_chain",
          message: "evidence_chain must be a JSON object holding one evidence chain",
          hint: "send one chain: {turn_ref, trigger, agent_reactions, outcomes, observed_checks, terminal_state, materiality}",
        },
      ],
    });
  });

  it("rejects a full session card passed as the chain (seed 000: input is one chain, not a card)", async () => {
    const card = { schema_version: 1, project_key: PROJECT, session_ref: "S0001", evidence_chains: [basicT1Chain()] };
    expect(await write(card)).toEqual({
      status: "invalid",
      errors: [
        {
          path: "evidence_chain",
          message: "evidence_chain must be one evidence chain, not a full session evidence card",
          hint: "send only the chain for the assigned turn_ref; the card is created and extended for you",
        },
      ],
    });
  });

  const HINT = "repair or move aside the existing card so that it matches project.json and the session index row";
  const REL = `projects/${PROJECT}/evidence/S0001.json`;
  it.each<[string, string, { path: string; message: string }[]]>([
    ["invalid JSON", "{not json", [{ path: "evidence_card", message: `existing evidence card ${REL} is not valid JSON: ` }]],
    ["a JSON array", "[]", [{ path: "evidence_card", message: `existing evidence card ${REL} must contain a JSON object` }]],
    [
      "a mismatched envelope",
      JSON.stringify({ schema_version: 2, project_key: "Other-000000000000", session_ref: "S0002", evidence_chains: {} }),
      [
        { path: "evidence_card.schema_version", message: `existing evidence card ${REL}: schema_version must be 1` },
        { path: "evidence_card.project_key", message: `existing evidence card ${REL}: project_key must be '${PROJECT}'` },
        { path: "evidence_card.session_ref", message: `existing evidence card ${REL}: session_ref must be 'S0001'` },
        { path: "evidence_card.evidence_chains", message: `existing evidence card ${REL}: evidence_chains must be a list` },
      ],
    ],
  ])("validates the existing card first: %s is a structured rejection", async (_label, content, expected) => {
    await fs.mkdir(path.dirname(cardFile(root)), { recursive: true });
    await fs.writeFile(cardFile(root), content);
    const result = await write(basicT1Chain());
    expect(result.status).toBe("invalid");
    const errors = result.status === "invalid" ? result.errors : [];
    expect(errors.map((e) => e.path)).toEqual(expected.map((e) => e.path));
    errors.forEach((e, i) => {
      expect(e.message.startsWith(expected[i]!.message)).toBe(true);
      expect(e.hint).toBe(HINT);
    });
    expect((await cardBytes(root))!.toString()).toBe(content);
  });

  it("refuses to write in a schema-2 (read-only) workspace", async () => {
    const meta = path.join(root, "metadata.json");
    await fs.writeFile(meta, JSON.stringify({ ...JSON.parse(await fs.readFile(meta, "utf8")), schema_version: 2 }));
    const error = await write(basicT1Chain()).catch((e: unknown) => e);
    expect(isAppError(error) && error.code).toBe("conflict");
    expect((error as Error).message).toMatch(/schema 2 and is read-only; evidence cannot be written/);
    expect(await cardBytes(root)).toBeNull();
  });

  it("leaves no temp or lock files behind", async () => {
    await write(basicT1Chain());
    await write(basicT2Chain());
    expect(await fs.readdir(path.dirname(cardFile(root)))).toEqual(["S0001.json"]);
  });
});
