"use client";

import { useQuery } from "@tanstack/react-query";

import type { BlobView } from "@/lib/ledger/schema";

import { auditCallQuery } from "./queries";

/** The blob's state: missing, pruned by retention, a source reference, or stored with its hash checked. */
function BlobState({ blob }: { blob: BlobView }) {
  if (blob.state === "missing") return <span className="font-normal normal-case text-danger">blob missing</span>;
  if (blob.state === "pruned") return <span className="font-normal normal-case text-muted">pruned{blob.pruned_at ? ` ${blob.pruned_at.slice(0, 10)}` : ""}</span>;
  if (blob.state === "reference")
    return <span className={`font-normal normal-case ${blob.verified ? "text-ok" : "text-muted"}`}>{blob.verified ? "source reference, bytes verified" : "source reference, source changed"}</span>;
  return <span className={`font-normal normal-case ${blob.verified ? "text-ok" : "text-danger"}`}>{blob.verified ? "hash verified" : "hash MISMATCH"}</span>;
}

function Blob({ label, blob }: { label: string; blob: BlobView }) {
  return (
    <section aria-label={label} className="flex flex-col gap-1">
      <h3 className="flex items-center gap-2 text-xs font-semibold uppercase tracking-wide text-muted">
        {label}
        <BlobState blob={blob} />
      </h3>
      {blob.ref && <p className="font-mono text-[11px] text-faint">{blob.ref}</p>}
      {blob.state !== "pruned" && <pre className="max-h-72 overflow-auto rounded border border-line bg-canvas p-2 font-mono text-xs whitespace-pre-wrap break-all">{JSON.stringify(blob.value, null, 2)}</pre>}
    </section>
  );
}

/** One call in detail: entries, input and output from their blobs (hash checked), policy decisions, files written. */
export function CallDetail({ receiptId, onClose }: { receiptId: string; onClose: () => void }) {
  const query = useQuery(auditCallQuery(receiptId));
  const receipt = query.data?.receipts[0];
  return (
    <aside aria-label="Call detail" className="flex w-[28rem] shrink-0 flex-col gap-3 overflow-auto rounded-md border border-line bg-surface p-4">
      <div className="flex items-center justify-between">
        <h2 className="font-mono text-sm font-semibold">{receipt?.started?.tool_name ?? "Call"}</h2>
        <button type="button" onClick={onClose} className="text-xs text-accent hover:underline">
          Close
        </button>
      </div>
      {query.isPending && <p className="text-sm text-muted">Loading…</p>}
      {query.isError && <p className="text-sm text-danger">{query.error.message}</p>}
      {receipt && (
        <>
          <dl className="grid grid-cols-[8rem_1fr] gap-x-3 gap-y-1 text-xs">
            <dt className="text-muted">Receipt</dt>
            <dd className="font-mono">{receipt.receipt_id}</dd>
            <dt className="text-muted">Task</dt>
            <dd className="font-mono">{receipt.started?.task_id}</dd>
            <dt className="text-muted">Door</dt>
            <dd>{receipt.started ? `${receipt.started.door}${receipt.started.client ? ` (${receipt.started.client})` : ""} · pid ${receipt.started.pid}` : "—"}</dd>
            {receipt.started?.actor && (
              <>
                <dt className="text-muted">Caller</dt>
                <dd>{`machine ${receipt.started.actor.machine} · role ${receipt.started.actor.role}`}</dd>
              </>
            )}
            <dt className="text-muted">Started</dt>
            <dd>{receipt.started?.timestamp}</dd>
            <dt className="text-muted">Result</dt>
            <dd>{receipt.finished ? `${receipt.finished.result}${receipt.finished.status ? ` (${receipt.finished.status})` : ""} in ${receipt.finished.duration_ms} ms` : "running"}</dd>
            {receipt.finished?.error && (
              <>
                <dt className="text-muted">Error</dt>
                <dd className="text-danger">{`${receipt.finished.error.code}: ${receipt.finished.error.message}`}</dd>
              </>
            )}
            <dt className="text-muted">Files written</dt>
            <dd className="font-mono">{receipt.finished?.artifacts_written.length ? receipt.finished.artifacts_written.join(", ") : "none"}</dd>
          </dl>
          <section aria-label="Policy decisions" className="flex flex-col gap-1">
            <h3 className="text-xs font-semibold uppercase tracking-wide text-muted">Policy decisions</h3>
            <ul className="flex flex-col gap-0.5 text-xs">
              {(receipt.finished?.policy_decisions ?? []).map((d, i) => (
                <li key={i} className="flex gap-2">
                  <span className={d.decision === "allow" ? "text-ok" : "text-danger"}>{d.decision}</span>
                  <span className="font-mono">{d.policy_id}</span>
                  {d.reason && <span className="text-muted">{d.reason}</span>}
                </li>
              ))}
            </ul>
          </section>
          <Blob label="Input" blob={receipt.input} />
          <Blob label="Output" blob={receipt.output} />
        </>
      )}
    </aside>
  );
}
