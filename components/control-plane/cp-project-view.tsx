
import { CpSessionList } from "@/components/control-plane/cp-session-list";
import { IntegrityBadges } from "@/components/control-plane/integrity-badges";
import { plural } from "@/components/format/format";
import { Breadcrumb } from "@/components/navigation/breadcrumb";
import type { ControlPlaneProject, CpSessionRow, LedgerIntegrity } from "@/lib/sources/control-plane/schema";

type Props = { project: ControlPlaneProject; sessions: CpSessionRow[]; ledgers: LedgerIntegrity[] };

/** The project page of a registered Control Plane root: sessions from ho2m, then every ledger with its integrity badge. */
export function CpProjectView({ project, sessions, ledgers }: Props) {
  const turns = sessions.reduce((n, s) => n + s.turn_count, 0);
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-4 overflow-auto p-6">
      <header className="flex flex-col gap-1">
        <Breadcrumb />
        <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
          <h1 className="text-lg font-semibold">{project.project_label}</h1>
          <span className="rounded bg-accent-soft px-1.5 py-0.5 text-2xs font-semibold text-accent">Control Plane</span>
          <span className="font-mono text-xs text-muted">{project.project_key}</span>
          <span className="text-xs text-muted">
            {plural(sessions.length, "session")} · {plural(turns, "turn")} · {plural(ledgers.length, "ledger")}
          </span>
        </div>
        <p className="font-mono text-2xs text-muted">{project.root} (read in place, never modified)</p>
      </header>
      <section aria-labelledby="cp-sessions" className="flex flex-col gap-2">
        <h2 id="cp-sessions" className="text-sm font-semibold">
          Sessions
        </h2>
        <CpSessionList projectKey={project.project_key} sessions={sessions} />
      </section>
      <IntegrityBadges projectKey={project.project_key} ledgers={ledgers} />
    </div>
  );
}
