import type { EvidenceCardStatus } from "@/lib/evidence/schema";

const STATUS_STYLE: Record<EvidenceCardStatus, string> = {
  complete: "bg-ok",
  partial: "bg-accent",
  invalid: "bg-warn",
  missing: "bg-line-strong",
};

export const STATUS_TITLE: Record<EvidenceCardStatus, string> = {
  complete: "card complete: every indexed turn has a valid chain",
  partial: "card valid, some indexed turns have no chain yet",
  invalid: "card fails validation",
  missing: "no evidence card yet",
};

type CoverageMeterProps = {
  withChain: number;
  total: number;
  status?: EvidenceCardStatus;
  label: string;
  /** What the counted turns have, for the tooltip. */
  what?: string;
};

/** "3/5" with a small bar: turns that have a chain over indexed turns. */
export function CoverageMeter({ withChain, total, status, label, what = "have an evidence chain" }: CoverageMeterProps) {
  const share = total === 0 ? 0 : Math.min(1, withChain / total);
  const title = `${withChain} of ${total} indexed turns ${what}${status ? ` · ${STATUS_TITLE[status]}` : ""}`;
  return (
    <span className="inline-flex items-center gap-1.5" title={title}>
      <span
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={withChain}
        aria-valuetext={`${withChain}/${total}`}
        className="h-1.5 w-12 overflow-hidden rounded-full bg-line"
      >
        <span className={`block h-full ${status ? STATUS_STYLE[status] : "bg-accent"}`} style={{ width: `${share * 100}%` }} />
      </span>
      <span className="font-mono text-2xs tabular-nums">
        {withChain}/{total}
      </span>
    </span>
  );
}
