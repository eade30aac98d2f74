export default function Loading() {
  return (
    <div role="status" aria-live="polite" className="flex flex-1 flex-col gap-3 p-6">
      <span className="sr-only">Loading…</span>
      <div className="h-5 w-48 animate-pulse rounded bg-line" />
      <div className="h-4 w-80 animate-pulse rounded bg-line/70" />
      <div className="mt-2 h-64 animate-pulse rounded-md bg-line/50" />
    </div>
  );
}
