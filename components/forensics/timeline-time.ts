/*
 * The Timeline's time column (issue 36): an event's UTC time, with its date when the session
 * runs over more than one day (a 16-day session read as one day's times) or the day changed
 * since the event before it.
 */

/** An ISO timestamp as UTC `YYYY-MM-DDTHH:MM:SS.mmmZ`; null when there is none or it does not parse. */
function utc(timestamp: string | null | undefined): string | null {
  if (!timestamp) return null;
  const ms = Date.parse(timestamp);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** The UTC day (`YYYY-MM-DD`) of an ISO timestamp; null when there is none. */
export function utcDay(timestamp: string | null | undefined): string | null {
  return utc(timestamp)?.slice(0, 10) ?? null;
}

/** Whether a session from `startedAt` to `endedAt` runs over more than one UTC day; false when either is unknown. */
export function spansDays(startedAt: string | null | undefined, endedAt: string | null | undefined): boolean {
  const first = utcDay(startedAt);
  const last = utcDay(endedAt);
  return first !== null && last !== null && first !== last;
}

/** What the time column shows for one event: `text`, and `dayStart` when its day differs from the event before it. */
export type TimelineTime = { text: string; dayStart: boolean };

/**
 * The time column of an event at `timestamp`, the event before it at `previous` (undefined when
 * not loaded, null when it has no time): `HH:MM:SS.mmm` (UTC), as `YYYY-MM-DD HH:MM:SS.mmm`
 * when `multiDay` or the day changed since `previous`; "—" without a timestamp.
 */
export function timelineTime(timestamp: string | null, previous: string | null | undefined, multiDay: boolean): TimelineTime {
  const at = utc(timestamp);
  if (at === null) return { text: timestamp ? timestamp.slice(11, 23) || timestamp : "—", dayStart: false };
  const before = utcDay(previous);
  const dayStart = before !== null && before !== at.slice(0, 10);
  const time = at.slice(11, 23);
  return { text: multiDay || dayStart ? `${at.slice(0, 10)} ${time}` : time, dayStart };
}
