import type { ReactNode } from "react";

import { Breadcrumb } from "@/components/navigation/breadcrumb";

import { SessionTabs } from "./session-tabs";

type SessionFrameProps = {
  project: { project_key: string; project_label: string };
  sessionRef: string;
  /** Set when the page shows one subagent transcript of the session. */
  agentId?: string | null;
  /** The tab of this page (`transcript`, `timeline`, `analysis`, `export`). */
  active: string;
  /** Tools at the tab bar's right end (the transcript's search box). */
  tools?: ReactNode;
  /** The overview banner under the tabs (usually streamed in its own Suspense boundary). */
  overview: ReactNode;
};

/**
 * The one frame of every session page (issue 29): breadcrumb and heading, the tab bar, then the
 * overview banner, in that order and place on Transcript, Timeline, Analysis and Chat export.
 */
export function SessionFrame({ project, sessionRef, agentId = null, active, tools, overview }: SessionFrameProps) {
  return (
    <div data-testid="session-frame" className="shrink-0">
      <div className="flex min-h-8 flex-wrap items-center gap-x-1.5 bg-surface px-4 pt-1">
        <Breadcrumb project={project} />
        <h1 className="font-mono text-sm leading-6 font-semibold">
          {sessionRef}
          {agentId && <span className="text-muted"> · subagent {agentId}</span>}
        </h1>
      </div>
      <SessionTabs projectKey={project.project_key} sessionRef={sessionRef} active={active}>
        {tools}
      </SessionTabs>
      {overview}
    </div>
  );
}
