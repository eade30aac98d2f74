import type { RiskLevel } from "@/lib/workspace/schema";

const STYLE: Record<RiskLevel, string> = {
  high: "border-danger/40 bg-danger-soft text-danger",
  low: "border-ok/30 bg-ok-soft text-ok",
};

/**
 * Seed 003 risk badge: low for 0–1 context resets, high for 2+; `pending` while a large session's
 * analysis is still running (list_sessions' `risk_pending`).
 */
export function RiskBadge({ level, resets, pending = false }: { level: RiskLevel | null; resets: number | null; pending?: boolean }) {
  if (pending) {
    return (
      <span className="inline-flex items-center gap-1 whitespace-nowrap text-2xs text-muted" title="The seed 003 analysis of this large session is running; its risk appears when it ends">
        <span aria-hidden className="size-2 animate-pulse rounded-full bg-accent/60" />
        analysing…
      </span>
    );
  }
  if (level === null) return <span className="text-faint">—</span>;
  return (
    <span
      data-risk={level}
      title={`${resets ?? 0} context reset${resets === 1 ? "" : "s"} (risk: low at 0–1, high at 2 or more)`}
      className={`inline-flex items-center gap-1 whitespace-nowrap rounded border px-1.5 py-0.5 text-2xs font-semibold uppercase tracking-wide ${STYLE[level]}`}
    >
      {level} risk{resets !== null && <span className="font-normal normal-case tabular-nums">· {resets}</span>}
    </span>
  );
}
