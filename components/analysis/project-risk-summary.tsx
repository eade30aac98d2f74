import Link from "next/link";

import { formatCount } from "@/components/format/format";
import { routes } from "@/components/navigation/routes";

/** At-risk count of a project (seed 003: high risk = 2+ context resets), linking to the filtered list. */
export function ProjectRiskSummary({ projectKey, risk }: { projectKey: string; risk: { high: number; total: number } | null }) {
  if (!risk) return null;
  return (
    <p data-testid="project-risk" className="text-xs text-muted">
      Phantom-read risk:{" "}
      <Link href={`${routes.project(projectKey)}?risk=high`} className={risk.high > 0 ? "font-semibold text-danger hover:underline" : "hover:underline"}>
        {formatCount(risk.high)} of {formatCount(risk.total)} sessions at high risk
      </Link>{" "}
      (2+ context resets)
    </p>
  );
}
