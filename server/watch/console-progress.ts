import { type PipelineStage, stageOfLabel, WATCH_AFTER_MS } from "@/lib/pipeline/workspace-status";
import type { PlanProgress } from "@/lib/workspace/prepare-plan";

/** Least time between two progress lines of a stage, ms: the full-text fill runs longest, at the steadiest pace. */
const EVERY_MS: Record<PipelineStage, number> = { syncing: 2_000, cataloguing: 2_000, indexing: 5_000 };

/** A stage that reported nothing for this long (ms) has ended without saying so (a run that failed midway): its next report starts it anew. */
const STALE_MS = 60_000;

/** One stage being reported: since when, its last line and report, and where its counts started (for the rates). */
type Phase = { since: number; last: number; seen: number; printed: boolean; done: number; firstDone: number; firstBytes: number };

const count = (n: number) => n.toLocaleString("en-US");

/**
 * A pipeline progress sink for a console that is not a terminal bar (the server's log, issue 36
 * item 2: a first start you can watch). While a stage runs, a line at most every 2 s (the full-text
 * fill: every 5 s), and one when it ends:
 * `[casefile] syncing: 4,210 of 20,001 session files (35/s, 48.2 MB/s)`,
 * `[casefile] cataloguing: 900 of 20,001 sessions (410/s)`,
 * `[casefile] indexing for search: 4,210 of 20,001 sessions (35/s)`,
 * `[casefile] search index complete: 20,001 sessions`. Stages are told apart by the pipeline's
 * labels (lib/pipeline/workspace-status); each is followed on its own, so the fill's lines and a
 * live sync's may interleave. A stage shorter than 2 s that printed nothing (a live sync of one
 * session) prints nothing. `now` is the clock (tests inject one).
 */
export function consoleProgress(out: { write(text: string): unknown }, now: () => number = Date.now): PlanProgress {
  const phases = new Map<PipelineStage, Phase>();
  return (done, total, label, bytes) => {
    const stage = stageOfLabel(label);
    const t = now();
    let phase = phases.get(stage);
    // A count that went back, or a long silence: a new run of the stage.
    if (!phase || done < phase.done || t - phase.seen > STALE_MS) {
      phase = { since: t, last: t, seen: t, printed: false, done, firstDone: done, firstBytes: bytes ?? 0 };
      phases.set(stage, phase);
    }
    phase.done = done;
    phase.seen = t;
    const finished = done >= total;
    if (finished) {
      phases.delete(stage);
      if (!phase.printed && t - phase.since < WATCH_AFTER_MS) return;
    } else if (t - phase.last < EVERY_MS[stage]) return;
    phase.last = t;
    phase.printed = true;
    out.write(`[casefile] ${describe(stage, done, total, finished, finished ? "" : rates(phase, t, done, bytes))}\n`);
  };
}

/** ` (35/s, 48.2 MB/s)`: items (and bytes, when known) per second since the stage's first report; empty before any moved. */
function rates(phase: Phase, t: number, done: number, bytes: number | undefined): string {
  const seconds = (t - phase.since) / 1000;
  if (seconds <= 0) return "";
  const perSecond = Math.round((done - phase.firstDone) / seconds);
  const mbPerSecond = bytes === undefined ? null : (bytes - phase.firstBytes) / (1 << 20) / seconds;
  const parts = [perSecond > 0 ? `${count(perSecond)}/s` : null, mbPerSecond !== null && mbPerSecond > 0 ? `${mbPerSecond.toFixed(1)} MB/s` : null].filter((p) => p !== null);
  return parts.length > 0 ? ` (${parts.join(", ")})` : "";
}

function describe(stage: PipelineStage, done: number, total: number, finished: boolean, rate: string): string {
  if (stage === "indexing") return finished ? `search index complete: ${count(total)} sessions` : `indexing for search: ${count(done)} of ${count(total)} sessions${rate}`;
  const what = stage === "syncing" ? "session files" : "sessions";
  return `${stage}: ${count(done)} of ${count(total)} ${what}${finished ? ", done" : rate}`;
}
