import { plural } from "@/components/format/format";
import type { ProjectEvidenceCoverage } from "@/lib/evidence/schema";

import { CoverageMeter } from "./coverage-meter";

/** The project's evidence coverage: turns with a chain over indexed turns, and complete cards. */
export function ProjectEvidenceSummary({ coverage }: { coverage: ProjectEvidenceCoverage }) {
  const { turns_with_chain: withChain, indexed_turns: total, sessions_complete: complete, sessions } = coverage;
  const percent = total === 0 ? 0 : Math.round((withChain / total) * 100);
  return (
    <section aria-label="Evidence coverage" className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted">
      <span className="font-medium text-ink">Evidence coverage</span>
      <CoverageMeter withChain={withChain} total={total} label="Project turns with an evidence chain" />
      <span>
        {percent}% of {plural(total, "indexed turn")} · {complete} of {plural(sessions.length, "session")} complete
      </span>
    </section>
  );
}
