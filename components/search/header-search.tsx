import { routes } from "@/components/navigation/routes";

/**
 * The header's search box on every page (issues 25, 37): a plain GET form to the global results
 * page, so it works before any script has loaded. No length check here: the results page says
 * what a query lacks (a short word, a malformed filter) in the parser's words.
 */
export function HeaderSearch() {
  return (
    <form role="search" method="get" action={routes.searchAll()} className="flex min-w-0 flex-1 items-center justify-end">
      <input
        name="q"
        type="search"
        required
        aria-label="Search all sessions"
        placeholder='Search: "phrase" tool:Bash'
        title='Search all sessions: words, "exact phrase", a OR b, -word, prefix*, project: session: agent: role: tool: file: is:error after: before:'
        className="h-7 w-64 min-w-0 rounded border border-line-strong bg-canvas px-2 text-sm"
      />
    </form>
  );
}
