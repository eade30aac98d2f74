"use client"; // Error boundaries must be Client Components (Next requirement).

import Link from "next/link";

export type RouteErrorProps = { error: unknown; retry: () => void };

/** A route's error boundary body: the message, the server digest when there is one, retry and home. */
export function RouteError({ error, retry }: RouteErrorProps) {
  // Server errors arrive with a generic message and a digest that matches the server log.
  const digest = error instanceof Error && "digest" in error ? String(error.digest) : null;
  // A production build hides a server error's message behind React's generic one (#441): say what it means instead.
  const message = digest !== null ? "The server could not make this page. Its log says why, under the digest below." : error instanceof Error ? error.message : "Unexpected error.";
  return (
    <div role="alert" className="mx-auto mt-10 flex max-w-xl flex-col gap-3 rounded-md border border-danger/30 bg-danger-soft p-6">
      <h1 className="text-base font-semibold text-danger">Something went wrong</h1>
      <p className="text-sm">{message}</p>
      {digest && <p className="font-mono text-xs text-muted">digest {digest} — see the server log</p>}
      <div className="flex gap-3">
        <button type="button" onClick={() => retry()} className="rounded border border-line-strong bg-surface px-3 py-1 text-sm hover:bg-canvas">
          Try again
        </button>
        <Link href="/" className="px-1 py-1 text-sm text-accent hover:underline">
          Back to projects
        </Link>
      </div>
    </div>
  );
}
