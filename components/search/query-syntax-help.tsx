import { routes } from "@/components/navigation/routes";

const OPERATORS: [string, string][] = [
  ["deploy failed", "both words on the line (any order)"],
  ['"exact phrase"', "the words together, as typed"],
  ["timeout OR deadline", "either word"],
  ["-test", "lines without this word"],
  ["migrat*", "a word starting with this"],
];

const FILTERS: [string, string][] = [
  ["project:KEY", "one project"],
  ["session:REF", "one session (S0001)"],
  ["agent:claude-code", "one agent: claude-code, codex, …"],
  ["machine:laptop", "sessions from one machine (where they ran)"],
  ["role:user", "who speaks: user, assistant or tool"],
  ["tool:Bash", "lines that call or answer this tool"],
  ["file:src/auth", "lines whose tool call names a file containing this"],
  ["is:error", "tool errors, API errors, failed commands"],
  ["after:2026-05-01", "on or after this day (before: excludes its day)"],
];

const EXAMPLES = ['"permission denied" tool:Bash', "is:error role:tool after:2026-05-01", "migrat* -test agent:codex", "ENOENT OR EACCES file:package.json"];

/**
 * The query language in short (issue 37), always at hand on the search page: operators, filters
 * and a few examples that open as searches. Matching is a case-insensitive grep of what a reader sees.
 */
export function QuerySyntaxHelp() {
  return (
    <details className="rounded border border-line bg-surface px-3 py-1.5 text-xs text-muted">
      <summary className="cursor-pointer text-accent select-none">Query syntax</summary>
      <div className="mt-2 flex flex-col gap-2 pb-1">
        <p>Every word a reader can see is searched (text, thinking, tool inputs and results, subagents), case-insensitively, as a grep would.</p>
        <div className="grid gap-x-6 gap-y-2 sm:grid-cols-2">
          <Terms title="Operators" rows={OPERATORS} />
          <Terms title="Filters" rows={FILTERS} />
        </div>
        <p className="flex flex-wrap items-baseline gap-1.5">
          Examples:
          {EXAMPLES.map((q) => (
            <a key={q} href={routes.searchAll({ q })} className="rounded bg-canvas px-1 font-mono text-accent hover:underline">
              {q}
            </a>
          ))}
        </p>
      </div>
    </details>
  );
}

function Terms({ title, rows }: { title: string; rows: [string, string][] }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] content-start gap-x-3 gap-y-0.5">
      <dt className="col-span-2 font-semibold text-ink">{title}</dt>
      {rows.map(([term, meaning]) => (
        <div key={term} className="contents">
          <dt className="font-mono whitespace-nowrap text-ink">{term}</dt>
          <dd>{meaning}</dd>
        </div>
      ))}
    </dl>
  );
}
