/** Who last wrote or corrected each evidence chain of a session, from the audit ledger. */
import { readBlob } from "@/lib/ledger/blobs";
import type { Ledger } from "@/lib/ledger/ledger-store";
import type { ChainAuthor } from "@/lib/ledger/schema";

const CHAIN_TOOLS = new Set(["write_evidence", "create_evidence_chain", "replace_evidence_chain", "delete_evidence_chain"]);

/**
 * Who last wrote or corrected each evidence chain of a session, from the audit ledger: the
 * successful calls of the evidence write tools on the task `project_key/session_ref` that wrote
 * the card, in ledger order, keyed by the turn_ref of their input (read from the input blob). A
 * delete removes the turn's author. Chains written before the ledger existed have none.
 */
export async function chainAuthors(ledger: Ledger, projectKey: string, sessionRef: string): Promise<Record<string, ChainAuthor>> {
  const index = await ledger.read();
  const out: Record<string, ChainAuthor> = {};
  for (const id of index.byTask.get(`${projectKey}/${sessionRef}`) ?? []) {
    const { started, finished } = index.receipts.get(id)!;
    if (!started || !CHAIN_TOOLS.has(started.tool_name) || finished?.result !== "success" || finished.artifacts_written.length === 0) continue;
    const blob = await readBlob(ledger.paths, started.input_hash);
    if (blob.state !== "present" || !blob.verified) continue;
    const turnRef = turnRefOf(blob.value);
    if (!turnRef) continue;
    if (started.tool_name === "delete_evidence_chain") delete out[turnRef];
    else out[turnRef] = { receipt_id: id, tool_name: started.tool_name, door: started.door, client: started.client ?? null, timestamp: finished.timestamp };
  }
  return out;
}

function turnRefOf(input: unknown): string | null {
  if (!input || typeof input !== "object") return null;
  const { turn_ref: direct, evidence_chain: chain } = input as Record<string, unknown>;
  if (typeof direct === "string") return direct;
  const nested = chain && typeof chain === "object" ? (chain as Record<string, unknown>).turn_ref : undefined;
  return typeof nested === "string" ? nested : null;
}
