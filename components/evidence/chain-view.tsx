import type { ReactNode } from "react";

import { AnsiText } from "@/components/viewer/ansi-text";
import { CONTROLLED, type ControlledLabel, type EvidenceError } from "@/lib/evidence/schema";

import { CitationChips } from "./citation-chip";
import type { ChainInput } from "./draft";

/** A controlled value as a tag whose title is its meaning (or a warning when it is not controlled). */
function Tag({ value, vocabulary }: { value: string; vocabulary: ControlledLabel }) {
  const meaning = (CONTROLLED[vocabulary] as Record<string, string>)[value];
  return (
    <span
      title={meaning ?? "not a controlled value"}
      className={`rounded px-1 font-mono text-2xs ${meaning ? "bg-turn-label/10 text-turn-label" : "bg-danger-soft text-danger"}`}
    >
      {value || "(none)"}
    </span>
  );
}

function Block({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <h4 className="text-2xs font-semibold tracking-wide text-muted uppercase">{title}</h4>
      {children}
    </div>
  );
}

/** One cited statement: optional tag, the text, its citation chips. */
function Cited({ tag, text, citations }: { tag?: ReactNode; text: string; citations: readonly { lines: string }[] }) {
  return (
    <li className="flex flex-col gap-0.5 text-xs leading-snug">
      {/* A quote is transcript text: its terminal colours and control characters read like the viewer's (issue 35). */}
      <p className="wrap-anywhere whitespace-pre-wrap">
        {tag && <>{tag} </>}
        {text ? <AnsiText text={text} /> : <span className="text-faint">(no summary)</span>}
      </p>
      <CitationChips citations={citations} />
    </li>
  );
}

/** A stored chain, read-only: trigger, reactions, outcomes, checks, terminal state, materiality. */
export function ChainView({ chain, issues }: { chain: ChainInput; issues: readonly EvidenceError[] }) {
  const { trigger } = chain;
  return (
    <div className="flex flex-col gap-2.5" data-testid="chain-view">
      <Block title="Trigger">
        <ul>
          <Cited tag={<Tag value={trigger.type} vocabulary="trigger.type" />} text={trigger.summary} citations={trigger.citations} />
        </ul>
        {trigger.quoted_messages.length > 0 && (
          <ul className="flex flex-col gap-1 border-l-2 border-line-strong pl-2">
            {trigger.quoted_messages.map((q, j) => (
              <Cited key={j} text={`“${q.text}”`} citations={q.citations} />
            ))}
          </ul>
        )}
      </Block>
      {chain.agent_reactions.length > 0 && (
        <Block title={`Reactions (${chain.agent_reactions.length})`}>
          <ol className="flex flex-col gap-1">
            {chain.agent_reactions.map((r, i) => (
              <Cited key={i} text={r.summary} citations={r.citations} />
            ))}
          </ol>
        </Block>
      )}
      <Block title={`Outcomes (${chain.outcomes.length})`}>
        {chain.outcomes.length === 0 && <p className="text-2xs text-faint">None.</p>}
        <ul className="flex flex-col gap-1">
          {chain.outcomes.map((o, i) => (
            <Cited key={i} tag={<Tag value={o.category} vocabulary="outcome category" />} text={o.summary} citations={o.citations} />
          ))}
        </ul>
      </Block>
      {chain.observed_checks.length > 0 && (
        <Block title={`Checks (${chain.observed_checks.length})`}>
          <ul className="flex flex-col gap-1">
            {chain.observed_checks.map((c, i) => (
              <Cited key={i} tag={<Tag value={c.type} vocabulary="check type" />} text={c.summary} citations={c.citations} />
            ))}
          </ul>
        </Block>
      )}
      <Block title="Terminal state">
        <ul>
          <Cited tag={<Tag value={chain.terminal_state.type} vocabulary="terminal_state.type" />} text={chain.terminal_state.summary} citations={chain.terminal_state.citations} />
        </ul>
      </Block>
      <p className="text-xs">
        <span className="text-2xs font-semibold tracking-wide text-muted uppercase">Materiality</span> <Tag value={chain.materiality} vocabulary="materiality" />
      </p>
      {issues.length > 0 && <IssueList issues={issues} />}
    </div>
  );
}

/** The problems prompt-diary's inspector would report for this chain, at editor paths. */
export function IssueList({ issues }: { issues: readonly EvidenceError[] }) {
  return (
    <ul className="flex flex-col gap-1 rounded border border-warn/30 bg-warn-soft p-2 text-2xs text-warn" aria-label="Chain issues">
      {issues.map((e, k) => (
        <li key={k}>
          <span className="font-mono">{e.path}</span>: {e.message}
          {e.hint && <span className="block text-muted">Hint: {e.hint}</span>}
        </li>
      ))}
    </ul>
  );
}
