/** The working directory (and git branch) a project's sessions ran in, so same-named projects are told apart. */
export function ProjectOrigin({ cwd, gitBranch }: { cwd: string | null; gitBranch: string | null }) {
  if (!cwd && !gitBranch) return null;
  return (
    <p className="flex flex-wrap items-baseline gap-x-2 text-2xs text-muted" data-testid="project-origin">
      {cwd && (
        <span className="font-mono break-all" title="working directory">
          {cwd}
        </span>
      )}
      {gitBranch && (
        <span className="rounded bg-accent-soft px-1 font-mono" title="git branch">
          {gitBranch}
        </span>
      )}
    </p>
  );
}
