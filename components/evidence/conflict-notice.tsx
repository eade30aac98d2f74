import type { EvidenceError } from "@/lib/evidence/schema";

type ConflictNoticeProps = {
  /** The server's conflict error, or null for the early warning (the turn's chain changed meanwhile). */
  error: EvidenceError | null;
  reloading: boolean;
  onReload: () => void;
};

/** A stale base (this turn's chain changed): say so plainly, keep the draft, offer to reload the card under it. */
export function ConflictNotice({ error, reloading, onReload }: ConflictNoticeProps) {
  const tone = error ? "border-danger/40 bg-danger-soft text-danger" : "border-warn/30 bg-warn-soft text-warn";
  return (
    <div role={error ? "alert" : "status"} className={`flex flex-col gap-1.5 rounded border p-2 text-xs ${tone}`}>
      <p className="font-semibold">{error ? "Not saved: this turn's chain changed on disk" : "This turn's chain changed on disk since you started this edit"}</p>
      <p>{error ? error.message : "Someone (an agent?) rewrote this turn's chain. Saving now will be refused."}</p>
      <p className="text-ink/80">
        Your draft is kept. {error ? `Hint: ${error.hint}` : "Reload the card, check your edit, and save."}
      </p>
      <button
        type="button"
        onClick={onReload}
        disabled={reloading}
        className="self-start rounded border border-current bg-surface px-2 py-0.5 font-medium text-ink hover:bg-canvas disabled:opacity-60"
      >
        {reloading ? "Reloading…" : "Reload card"}
      </button>
    </div>
  );
}
