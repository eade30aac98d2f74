import { routes } from "@/components/navigation/routes";

/**
 * The header's search box on every page (issue 25): a plain GET form to the global results
 * page, so it works before any script has loaded.
 */
export function HeaderSearch() {
  return (
    <form role="search" method="get" action={routes.searchAll()} className="flex items-center">
      <input
        name="q"
        type="search"
        minLength={3}
        required
        aria-label="Search all sessions"
        placeholder="Search all sessions…"
        className="h-7 w-64 rounded border border-line-strong bg-canvas px-2 text-sm"
      />
    </form>
  );
}
