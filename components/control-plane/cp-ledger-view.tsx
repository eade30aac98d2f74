import Link from "next/link";

import { plural } from "@/components/format/format";
import { Breadcrumb } from "@/components/navigation/breadcrumb";
import { routes } from "@/components/navigation/routes";
import type { ControlPlaneProject, LedgerIntegrity } from "@/lib/sources/control-plane/schema";

type LedgerWindow = { ledger: string; segments: string[]; total_lines: number; offset: number; lines: { file: string; line: number; text: string }[] };

type Props = { project: ControlPlaneProject; window: LedgerWindow; verdict: LedgerIntegrity | null; target: { file: string | null; line: number } | null };

/**
 * One Control Plane ledger's raw lines (500 per page, chain order) with its integrity verdict:
 * lines with an error are marked red, legacy lines amber, the linked line highlighted.
 */
export function CpLedgerView({ project, window: w, verdict, target }: Props) {
  const issueAt = new Map<string, { severity: string; kind: string; message: string }>();
  for (const i of verdict?.issues ?? []) if (i.line !== null && !issueAt.has(`${i.file}:${i.line}`)) issueAt.set(`${i.file}:${i.line}`, i);
  const base = routes.ledger(project.project_key, w.ledger);
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-3 overflow-auto p-6">
      <header className="flex flex-col gap-1">
        <Breadcrumb project={project} />
        <div className="flex flex-wrap items-baseline gap-x-3">
          <h1 className="font-mono text-lg font-semibold">{w.ledger}</h1>
          <span className="text-xs text-muted">
            {plural(w.total_lines, "line")} · {w.segments.join(", ")}
          </span>
          {verdict ? (
            <span data-testid="ledger-verdict" className={`rounded px-1.5 py-0.5 text-2xs font-semibold uppercase ${verdict.status === "broken" ? "bg-danger-soft text-danger" : "bg-ok-soft text-ok"}`}>
              {verdict.status === "broken" ? `broken at ${verdict.first_broken?.file}:${verdict.first_broken?.line ?? "index"}` : "verified"}
            </span>
          ) : null}
        </div>
        <div className="flex gap-3 text-xs">
          {w.offset > 0 ? (
            <Link href={`${base}?offset=${Math.max(0, w.offset - 500)}`} className="text-accent hover:underline">
              Previous 500
            </Link>
          ) : null}
          {w.offset + w.lines.length < w.total_lines ? (
            <Link href={`${base}?offset=${w.offset + w.lines.length}`} className="text-accent hover:underline">
              Next 500
            </Link>
          ) : null}
        </div>
      </header>
      <ol className="rounded border border-line bg-surface font-mono text-2xs">
        {w.lines.map((l) => {
          const issue = issueAt.get(`${l.file}:${l.line}`);
          const isTarget = target !== null && target.line === l.line && (target.file === null || target.file === l.file);
          // scroll-mt: a #L<n> link keeps a few lines (and, near the top, the verdict) above its line.
          const tone = issue?.severity === "error" ? "bg-danger-soft" : issue ? "bg-warn-soft" : isTarget ? "bg-highlight" : "";
          return (
            <li key={`${l.file}:${l.line}`} id={`L${l.line}`} data-line={l.line} className={`flex scroll-mt-40 gap-3 border-b border-line/60 px-2 py-1 last:border-0 ${tone}`}>
              <span className="w-12 shrink-0 text-right text-faint tabular-nums select-none">{l.line}</span>
              <span className="min-w-0 flex-1 break-all whitespace-pre-wrap">
                {issue ? (
                  <span className={`mr-2 font-sans font-semibold ${issue.severity === "error" ? "text-danger" : "text-warn"}`}>
                    {issue.kind}: {issue.message}
                  </span>
                ) : null}
                {l.text.length > 4000 ? `${l.text.slice(0, 4000)}…` : l.text}
              </span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
