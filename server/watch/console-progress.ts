import type { PlanProgress } from "@/lib/workspace/prepare-plan";

/** Least time between two progress lines, ms. */
const EVERY_MS = 2_000;

/**
 * A pipeline progress sink for a console that is not a terminal bar (the server's log, issue 36
 * item 2: a first start you can watch): a line at most every 2 s while a phase runs, e.g.
 * `[casefile] syncing: 4,210 of 20,001 session files (35/s)`, and one when it ends. Phases are
 * the sync (source files) and the catalog's rows (labels prefixed `catalog `). A phase shorter
 * than 2 s (a live sync of one session) prints nothing.
 */
export function consoleProgress(out: { write(text: string): unknown }, now: () => number = Date.now): PlanProgress {
  let phase = "";
  let since = 0;
  let last = 0;
  let printed = false;
  return (done, total, label) => {
    const current = label.startsWith("catalog ") ? "cataloguing" : "syncing";
    const t = now();
    if (current !== phase) {
      phase = current;
      since = t;
      last = t;
      printed = false;
    }
    const finished = done >= total;
    if (finished ? !printed : t - last < EVERY_MS) return;
    last = t;
    printed = !finished;
    const rate = t > since ? Math.round((done * 1000) / (t - since)) : 0;
    const what = phase === "syncing" ? "session files" : "sessions";
    out.write(`[casefile] ${phase}: ${done.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} ${what}${finished ? ", done" : rate > 0 ? ` (${rate.toLocaleString("en-US")}/s)` : ""}\n`);
  };
}
