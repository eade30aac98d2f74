import type { ReactNode } from "react";

const TONES = {
  neutral: "border-line-strong bg-canvas text-muted",
  accent: "border-accent/30 bg-accent-soft text-accent",
  ok: "border-ok/30 bg-ok-soft text-ok",
  warn: "border-warn/30 bg-warn-soft text-warn",
  danger: "border-danger/30 bg-danger-soft text-danger",
} as const;

export type BadgeTone = keyof typeof TONES;

export function Badge({ tone = "neutral", title, children }: { tone?: BadgeTone; title?: string; children: ReactNode }) {
  return (
    <span
      title={title}
      className={`inline-flex shrink-0 items-center rounded border px-1 font-sans text-2xs leading-4 font-medium whitespace-nowrap ${TONES[tone]}`}
    >
      {children}
    </span>
  );
}
