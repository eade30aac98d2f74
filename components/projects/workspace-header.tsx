type WorkspaceInfo = {
  workspace_root: string;
  report_date: string | null;
  timezone: string | null;
  schema_version: number | null;
  /** No date window recorded: the workspace holds every session, whatever its day. */
  all_time?: boolean;
  /** The workspace shows Casefile's generated demo transcripts, not the user's sessions. */
  demo?: boolean;
};

/** Which workspace the dashboard is reading: path, report date, time zone. */
export function WorkspaceHeader({ info }: { info: WorkspaceInfo }) {
  return (
    <header className="flex flex-col gap-2 border-b border-line pb-4">
      <h1 className="text-lg font-semibold">Projects</h1>
      {info.demo && (
        <p role="note" className="rounded-md border border-accent/40 bg-accent-soft px-3 py-2 text-sm">
          <strong>Demo data.</strong> No Claude Code or Codex sessions were found on this machine (<code className="font-mono">~/.claude/projects</code>,{" "}
          <code className="font-mono">~/.codex/sessions</code>), so these projects are transcripts Casefile generated. Once either folder exists, the next{" "}
          <code className="font-mono">npm start</code> replaces them with your own sessions; or add a folder now with{" "}
          <code className="font-mono">casefile sources add --claude PATH</code>.
        </p>
      )}
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-xs">
        <dt className="text-muted">Workspace</dt>
        <dd className="font-mono break-all">{info.workspace_root}</dd>
        <dt className="text-muted">{info.all_time ? "Window" : "Report date"}</dt>
        <dd className="tabular-nums">
          {info.all_time ? "all time" : (info.report_date ?? "—")}
          {/* A time zone says something only about a day window. */}
          {info.timezone && !info.all_time ? <span className="text-muted"> ({info.timezone})</span> : null}
        </dd>
        {info.schema_version !== null && (
          <>
            <dt className="text-muted">Schema</dt>
            <dd>v{info.schema_version}</dd>
          </>
        )}
      </dl>
    </header>
  );
}
