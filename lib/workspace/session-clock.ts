/** A session's clock: when it started and ended and how long it ran, one rule for every page and tool (issue 36 item 6). */
import { readUsage, type SessionUsage } from "@/lib/usage/session-usage";
import { readSessionUsage, sessionUsageIfReady } from "@/lib/workspace/session-usage";
import type { ResolvedSession } from "@/lib/workspace/sessions";
import { pricingOverrideFile } from "@/lib/workspace/sources";

/**
 * When a session started and ended (ISO 8601 UTC with milliseconds) and how long it ran (whole
 * seconds, rounded); all three null when no record of it has a timestamp.
 */
export type SessionClock = { started_at: string | null; ended_at: string | null; duration_seconds: number | null };

/** The clock of a session whose times are not known (yet): every field null. */
export const UNKNOWN_CLOCK: SessionClock = Object.freeze({ started_at: null, ended_at: null, duration_seconds: null });

/**
 * Bytes of transcripts a page waits to be read for its clock (as `list_sessions` waits for a
 * session's usage, lib/analysis `RISK_WAIT_MAX_BYTES`); a bigger session's clock is
 * {@link UNKNOWN_CLOCK} until its one pass has run in the background (issue 13).
 */
export const CLOCK_WAIT_MAX_BYTES = 64 << 20;

/**
 * The one rule of a session's clock (issue 36 item 6): it started at its EARLIEST record
 * timestamp and ended at its LATEST — the min and max of the records' own top-level,
 * timezone-aware timestamps over its main transcript and subagent transcripts, whatever order
 * the records are in (a resumed or merged file is not in time order: its first line is not its
 * start, its last line not its end); naive or unparseable timestamps are left out. `span` is
 * what lib/usage's one pass over every line found ({@link SessionUsage} `firstMs`/`lastMs`, or a
 * tally prepare counted), null when the pass has not run: the clock is then unknown, never a
 * guess from the file's ends. `list_sessions`, the catalog rows, the viewer header and
 * `session_overview` all read their start, end and duration here, so they agree.
 */
export function sessionClock(span: Pick<SessionUsage, "firstMs" | "lastMs"> | null): SessionClock {
  if (span === null || span.firstMs === null || span.lastMs === null) return UNKNOWN_CLOCK;
  return {
    started_at: new Date(span.firstMs).toISOString(),
    ended_at: new Date(span.lastMs).toISOString(),
    duration_seconds: Math.round((span.lastMs - span.firstMs) / 1000),
  };
}

/**
 * A prepared session's {@link sessionClock}, from its usage pass (lib/workspace/session-usage:
 * cached per process and, for big sessions, on disk). `waitBytes`: when given, a session whose
 * transcripts total more is not waited for: its pass starts in the background and the clock is
 * {@link UNKNOWN_CLOCK} until it has run (a page never waits on a gigabyte pass).
 * @throws the fs error when a transcript cannot be read; AppError parse_error for a bad price override file.
 */
export async function readSessionClock(ctx: { workspaceRoot: string; oneShot?: boolean }, session: ResolvedSession, waitBytes?: number): Promise<SessionClock> {
  return sessionClock(waitBytes === undefined ? await readSessionUsage(ctx, session) : await sessionUsageIfReady(ctx, session, waitBytes));
}

/**
 * The {@link sessionClock} of one transcript alone (a subagent's, for its own viewer header),
 * by the same pass over its lines.
 * @throws the fs error when it cannot be read; AppError parse_error for a bad price override file.
 */
export async function readTranscriptClock(ctx: { workspaceRoot: string }, filePath: string, source: string): Promise<SessionClock> {
  return sessionClock(await readUsage(`transcript\u0000${filePath}`, source, [{ kind: "subagent", path: filePath }], pricingOverrideFile(ctx.workspaceRoot)));
}
