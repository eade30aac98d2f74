/** Test writer process: appends, replaces or deletes evidence chains for the card concurrency tests. */
import { chainForTurn } from "@/lib/evidence/__fixtures__/chains";
import { deleteEvidenceChain, replaceEvidenceChain } from "@/lib/evidence/corrections";
import { getEvidenceCard } from "@/lib/evidence/get-evidence-card";
import { appendEvidenceChain } from "@/lib/evidence/write-evidence";
import { createCoreContext } from "@/lib/context";

/*
 * A separate writer process for the concurrency tests (bundled once by the test, then run
 * with plain node so that hundreds of spawns stay fast).
 *   append ROOT PROJECT SESSION START_AT_MS TURN...  appends one chain per turn, all at once,
 *                                                    from START_AT_MS on; prints a JSON list
 *                                                    of "appended" or the first error message
 *   churn  ROOT PROJECT SESSION                      prints "ready" once loaded, waits for a line
 *                                                    on stdin, then appends, replaces and deletes
 *                                                    chains in a tight loop, printing "w" per
 *                                                    committed write, until killed
 */

const [mode, root = "", projectKey = "", sessionRef = "", ...rest] = process.argv.slice(2);
const ctx = createCoreContext(root);
const ids = { project_key: projectKey, session_ref: sessionRef };

async function turnSpans() {
  const view = await getEvidenceCard(ctx, projectKey, sessionRef);
  return new Map(view.turns.map((t) => [t.turn_ref, t]));
}

async function append(startAt: number, turnRefs: string[]): Promise<void> {
  const spans = await turnSpans();
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now())));
  const results = await Promise.all(turnRefs.map((t) => appendEvidenceChain(ctx, { ...ids, evidence_chain: chainForTurn(spans.get(t)!) })));
  process.stdout.write(`${JSON.stringify(results.map((r) => (r.status === "appended" ? "appended" : r.errors[0]!.message)))}\n`);
}

async function churn(): Promise<never> {
  const spans = [...(await turnSpans()).values()];
  process.stdout.write("ready\n");
  await new Promise((resolve) => process.stdin.once("data", resolve));
  process.stdin.pause();
  for (let i = 0; ; i += 1) {
    const turn = spans[i % spans.length]!;
    const view = await getEvidenceCard(ctx, projectKey, sessionRef);
    const has = view.turns.find((t) => t.turn_ref === turn.turn_ref)?.state === "chain";
    const chain = { ...chainForTurn(turn), materiality: i % 2 === 0 ? "material" : "minor" };
    const result = !has
      ? await appendEvidenceChain(ctx, { ...ids, evidence_chain: chain })
      : i % 3 === 0
        ? await replaceEvidenceChain(ctx, { ...ids, evidence_chain: chain, base_version: view.version })
        : await deleteEvidenceChain(ctx, { ...ids, turn_ref: turn.turn_ref, base_version: view.version });
    if (result.status === "invalid") throw new Error(JSON.stringify(result.errors));
    if (result.status !== "conflict") process.stdout.write("w");
  }
}

const run = mode === "append" ? append(Number(rest[0]), rest.slice(1)) : mode === "churn" ? churn() : Promise.reject(new Error(`unknown mode ${mode}`));
run.catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
