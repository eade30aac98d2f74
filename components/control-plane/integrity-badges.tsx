import Link from "next/link";

import { plural } from "@/components/format/format";
import { routes } from "@/components/navigation/routes";
import type { LedgerIntegrity } from "@/lib/sources/control-plane/schema";

/** Green/red integrity badge per ledger, naming the first broken line (issue 11). */
export function IntegrityBadges({ projectKey, ledgers }: { projectKey: string; ledgers: LedgerIntegrity[] }) {
  return (
    <section aria-labelledby="cp-integrity" className="flex flex-col gap-2">
      <h2 id="cp-integrity" className="text-sm font-semibold">
        Ledger integrity
      </h2>
      <ul className="flex flex-col divide-y divide-line/70 rounded border border-line bg-surface">
        {ledgers.map((l) => {
          const broken = l.status === "broken";
          return (
            <li key={l.ledger} data-testid="ledger-integrity" data-ledger={l.ledger} data-status={l.status} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 px-3 py-2 text-sm">
              <span
                className={`rounded px-1.5 py-0.5 text-2xs font-semibold uppercase ${broken ? "bg-danger-soft text-danger" : l.status === "empty" ? "bg-canvas text-muted" : "bg-ok-soft text-ok"}`}
                aria-label={`${l.ledger}: ${broken ? "broken" : l.status === "empty" ? "empty" : "verified"}`}
              >
                {broken ? "broken" : l.status === "empty" ? "empty" : "verified"}
              </span>
              <Link href={routes.ledger(projectKey, l.ledger)} className="font-mono text-accent hover:underline">
                {l.ledger}
              </Link>
              <span className="text-xs text-muted">
                {plural(l.entries, "entry", "entries")} · {l.verified}/{l.hashed} hashed verified{l.legacy ? ` · ${plural(l.legacy, "legacy line")}` : ""} · {plural(l.segments.length, "segment")}
                {l.segments.some((s) => s.index !== "absent") ? ` · Merkle ${l.segments.filter((s) => s.index === "match").length}/${l.segments.filter((s) => s.index !== "absent").length} match index.jsonl` : ""}
              </span>
              {l.first_broken ? (
                <Link href={routes.ledger(projectKey, l.ledger, l.first_broken)} className="basis-full text-xs text-danger hover:underline">
                  First broken: {l.first_broken.file}
                  {l.first_broken.line ? `:${l.first_broken.line}` : ""} — {l.first_broken.kind}: {l.first_broken.message}
                </Link>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
