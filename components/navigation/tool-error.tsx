import Link from "next/link";

/** A page's read that a tool refused, said plainly: what, why (the tool's message) and what to do. */
export function ToolErrorPanel({ title, error }: { title: string; error: { code: string; message: string; hint: string | null } }) {
  return (
    <div role="alert" data-testid="tool-error" className="mx-auto mt-10 flex max-w-xl flex-col gap-3 rounded-md border border-danger/30 bg-danger-soft p-6">
      <h1 className="text-base font-semibold text-danger">{title}</h1>
      <p className="text-sm">{error.message}</p>
      {error.hint && <p className="text-xs text-muted">{error.hint}</p>}
      <p className="font-mono text-xs text-faint">{error.code}</p>
      <Link href="/" className="text-sm text-accent hover:underline">
        Back to projects
      </Link>
    </div>
  );
}
