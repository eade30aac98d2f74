/** Test writer process for the synthesis concurrency tests. */
import { createCoreContext } from "@/lib/context";
import { createOperatorItem } from "@/lib/synthesis/operator-item";
import { findSecretKinds } from "@/lib/synthesis/secret-scan";
import { getSynthesisState } from "@/lib/synthesis/synthesis-state";
import { writeWorkItem } from "@/lib/synthesis/write-work-item";

/*
 * A separate writer process for the concurrency tests (bundled once by the test, then run with
 * plain node so that hundreds of spawns stay fast).
 *   append ROOT PROJECT START_AT_MS REF:SESSION/TURN…  writes one no_material_work_item per
 *                                                      argument, all at once, from START_AT_MS
 *                                                      on; prints a JSON list of "appended" or
 *                                                      the first error message
 *   churn  ROOT PROJECT                                prints "ready" once loaded, waits for a
 *                                                      line on stdin, then covers the first
 *                                                      uncovered turn again and again with an
 *                                                      operator item (an exclusion for a turn
 *                                                      with a chain, a gap item for one
 *                                                      without), printing "s" as each write
 *                                                      starts and "w" once it is committed,
 *                                                      until killed
 */

const [mode, root = "", projectKey = "", ...rest] = process.argv.slice(2);
const ctx = createCoreContext(root);

const item = (ref: string, key: string) => {
  const [session_ref, turn_ref] = key.split("/");
  return { work_item_ref: ref, kind: "no_material_work_item", title: `Turn ${key}`, covered_turns: [{ session_ref, turn_ref }], confidence: "low" };
};

/** Runs the whole write path once without writing (an unindexed turn is refused under the lock). */
async function warmUp(): Promise<void> {
  await getSynthesisState(ctx, projectKey);
  await findSecretKinds("warm up");
  const refused = await writeWorkItem(ctx, { project_key: projectKey, work_item: item("W9999", "S9999/T9999") });
  if (refused.status !== "invalid") throw new Error("the warm-up write was not refused");
}

async function append(startAt: number, specs: string[]): Promise<void> {
  await warmUp(); // load everything before the start line
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now())));
  const results = await Promise.all(
    specs.map((spec) => {
      const [ref = "", key = ""] = spec.split(":");
      return writeWorkItem(ctx, { project_key: projectKey, work_item: item(ref, key) });
    }),
  );
  process.stdout.write(`${JSON.stringify(results.map((r) => (r.status === "appended" ? "appended" : r.errors[0]!.message)))}\n`);
}

async function churn(): Promise<never> {
  const state = await getSynthesisState(ctx, projectKey);
  const hasChain = new Set(state.turns.filter((t) => t.has_chain).map((t) => `${t.session_ref}/${t.turn_ref}`));
  let uncovered = state.uncovered_turns;
  await warmUp();
  process.stdout.write("ready\n");
  await new Promise((resolve) => process.stdin.once("data", resolve));
  process.stdin.pause();
  for (;;) {
    // Like an agent: the next target comes from the last answer's uncovered_turns (rejections carry it too).
    const next = uncovered[0];
    if (!next) throw new Error("the workspace is fully covered; give the test more turns");
    const kind = hasChain.has(`${next.session_ref}/${next.turn_ref}`) ? "excluded_with_reason" : "evidence_gap_item";
    process.stdout.write("s");
    const result = await createOperatorItem(ctx, { project_key: projectKey, kind, covered_turns: [next], title: "Operator item", reason: "Not reportable.", confidence: "low" });
    if (result.status === "appended") process.stdout.write("w");
    else if (!result.errors.every((e) => e.message.endsWith("is already covered by another work item"))) throw new Error(JSON.stringify(result.errors));
    uncovered = result.uncovered_turns ?? [];
  }
}

const run = mode === "append" ? append(Number(rest[0]), rest.slice(1)) : mode === "churn" ? churn() : Promise.reject(new Error(`unknown mode ${mode}`));
run.catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
