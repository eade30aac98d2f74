/** Test process calling tools through the registry, for the ledger's concurrency and crash tests. */
import { createCoreContext } from "@/lib/context";
import { chainForTurn } from "@/lib/evidence/__fixtures__/chains";
import { getEvidenceCard } from "@/lib/evidence/get-evidence-card";
import { getLedger } from "@/lib/ledger/ledger-store";
import { openLedger } from "@/lib/ledger/reconcile";
import { callTool } from "@/lib/tools/registry";

/*
 * A separate process calling tools through the registry like `casefile tool` does (door cli), for
 * the ledger's concurrency and crash tests (bundled once, run with plain node).
 *   calls ROOT PROJECT REF N   prints "ready" once loaded, waits for a line on stdin, makes N
 *                              read_session_lines calls, prints "done"
 *   write ROOT PROJECT REF     prints "ready", waits for a line on stdin, then creates, replaces
 *                              and deletes evidence chains in a tight loop, printing "s" before
 *                              each call and "w" after it, until killed
 *   start ROOT                 a door starting: reconciles the ledger, prints "started"
 */

const [mode, root = "", projectKey = "", sessionRef = "", count = "25"] = process.argv.slice(2);
const ctx = createCoreContext(root);
const ids = { project_key: projectKey, session_ref: sessionRef };
const cli = { door: "cli" as const };

const go = () =>
  new Promise<void>((resolve) =>
    process.stdin.once("data", () => {
      process.stdin.destroy();
      resolve();
    }),
  );

async function calls(n: number): Promise<void> {
  await openLedger(getLedger(ctx.workspaceRoot));
  process.stdout.write("ready\n");
  await go();
  for (let i = 0; i < n; i += 1) {
    const result = await callTool(ctx, "read_session_lines", { ...ids, start_line: 1 + (i % 7), end_line: 2 + (i % 7) }, cli);
    if (result.status !== "ok") throw new Error(JSON.stringify(result));
  }
  process.stdout.write("done\n");
}

async function write(): Promise<never> {
  const view = await getEvidenceCard(ctx, projectKey, sessionRef);
  const turns = view.turns.filter((t) => t.turn_end_line - t.turn_start_line >= 2).slice(0, 4);
  await openLedger(getLedger(ctx.workspaceRoot));
  process.stdout.write("ready\n");
  await go();
  for (let i = 0; ; i += 1) {
    const turn = turns[i % turns.length]!;
    const card = await getEvidenceCard(ctx, projectKey, sessionRef);
    const has = card.turns.find((t) => t.turn_ref === turn.turn_ref)?.state === "chain";
    const chain = { ...chainForTurn(turn), materiality: i % 2 === 0 ? "material" : "minor" };
    process.stdout.write("s");
    if (!has) await callTool(ctx, "write_evidence", { ...ids, evidence_chain: chain }, cli);
    else if (i % 3 === 0) await callTool(ctx, "replace_evidence_chain", { ...ids, evidence_chain: chain, base_version: card.version }, cli);
    else await callTool(ctx, "delete_evidence_chain", { ...ids, turn_ref: turn.turn_ref, base_version: card.version }, cli);
    process.stdout.write("w");
  }
}

async function main(): Promise<void> {
  if (mode === "calls") return calls(Number(count));
  if (mode === "write") return write();
  if (mode === "start") {
    await openLedger(getLedger(ctx.workspaceRoot));
    process.stdout.write("started\n");
    return;
  }
  throw new Error(`unknown mode ${mode}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
