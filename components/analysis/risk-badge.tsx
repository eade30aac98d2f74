import type { RiskLevel } from "@/lib/analysis/schema";

const STYLE: Record<RiskLevel, string> = {
  high: "border-danger/40 bg-danger-soft text-danger",
  low: "border-ok/30 bg-ok-soft text-ok",
};

/** Seed 003 risk badge: low for 0–1 context resets, high for 2+. */
export function RiskBadge({ level, resets }: { level: RiskLevel | null; resets: number | null }) {
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
