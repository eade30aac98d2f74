import Link from "next/link";
import { Suspense } from "react";

import { formatCount } from "@/components/format/format";
import { routes } from "@/components/navigation/routes";
import type { SessionOverviewResult } from "@/lib/forensics/schema";
import type { SessionDetail } from "@/lib/workspace/schema";

import { OverviewCard } from "./overview-card";

/** Loads the session's overview (the page passes its `session_overview` query). */
type LoadOverview = () => Promise<SessionOverviewResult>;

async function StreamedOverview({ load, after }: { load: LoadOverview; after?: Promise<unknown> }) {
  // A page's own first content first: a cold overview scans the whole session (seconds of CPU
  // for a gigabyte) and must not slow it (issue 13).
  if (after) await after.catch(() => undefined);
  return <OverviewCard overview={await load()} />;
}

/**
 * The session overview banner of every session page, streamed in its own Suspense boundary
 * (loaded after `after`, when given). Under the frame's tabs (components/sessions/session-frame).
 */
export function SessionOverviewBanner({ load, after }: { load: LoadOverview; after?: Promise<unknown> }) {
  return (
    <Suspense fallback={<p className="shrink-0 border-b border-line bg-canvas px-4 py-1.5 text-xs text-muted">Summarizing the session…</p>}>
      <StreamedOverview load={load} after={after} />
    </Suspense>
  );
}

/**
 * A subagent transcript's own overview (issue 29): the task it was given, its tool calls and last
 * reply, and the way back to the main transcript at the line that spawned it.
 */
export function SubagentOverviewBanner({ detail }: { detail: SessionDetail }) {
  const sub = detail.subagent;
  const back = sub?.spawn_line ? routes.line(detail.project_key, detail.session_ref, sub.spawn_line) : routes.session(detail.project_key, detail.session_ref);
  return (
    <details data-testid="subagent-overview" className="group shrink-0 border-b border-line bg-accent-soft/60 px-4 py-1.5 text-xs">
      <summary className="flex cursor-pointer list-none flex-wrap items-baseline gap-x-2">
        <Link href={back} data-testid="subagent-back" className="shrink-0 font-medium text-accent hover:underline">
          ← {detail.session_ref}
          {sub?.spawn_line ? ` line ${sub.spawn_line}` : ""}
        </Link>
        <span className="shrink-0 text-muted">
          subagent · {formatCount(detail.turn_count)} turn{detail.turn_count === 1 ? "" : "s"} · {formatCount(sub?.tool_calls ?? 0)} tool calls · {formatCount(detail.line_count)} lines
        </span>
        <p className="min-w-0 flex-1 truncate group-open:whitespace-normal" title={sub?.prompt ?? undefined}>
          Task: {sub?.prompt ?? "—"}
        </p>
        <span className="shrink-0 text-2xs text-accent group-open:hidden">Details</span>
      </summary>
      {sub?.last_reply && (
        <p className="mt-1.5 whitespace-pre-wrap text-ink/80">
          <span className="font-semibold">Last reply: </span>
          {sub.last_reply}
        </p>
      )}
    </details>
  );
}
