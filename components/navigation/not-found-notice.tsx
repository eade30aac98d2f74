import Link from "next/link";

/** A route's not-found body: what is missing, why it may be, and the way home. */
export function NotFoundNotice() {
  return (
    <div className="mx-auto mt-10 flex max-w-xl flex-col gap-3 rounded-md border border-line bg-surface p-6">
      <h1 className="text-base font-semibold">Not found</h1>
      <p className="text-sm text-muted">
        This project, session or subagent transcript is not in the workspace. It may have been re-prepared.
      </p>
      <Link href="/" className="text-sm text-accent hover:underline">
        Back to projects
      </Link>
    </div>
  );
}
