/** Durations as people read them: the `duration` of session overviews (seed 004: "12 minutes"). */

/** Seconds as "45 seconds", "12 minutes", "2 hours 5 minutes", "3 days 2 hours" (negative as 0; two units at most). */
export function humanDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (s < 60) return unit(s, "second");
  const minutes = Math.round(s / 60);
  if (minutes < 60) return unit(minutes, "minute");
  const hours = Math.floor(minutes / 60);
  const restMinutes = minutes % 60;
  if (hours < 24) return restMinutes === 0 ? unit(hours, "hour") : `${unit(hours, "hour")} ${unit(restMinutes, "minute")}`;
  const days = Math.floor(hours / 24);
  const restHours = hours % 24;
  return restHours === 0 ? unit(days, "day") : `${unit(days, "day")} ${unit(restHours, "hour")}`;
}
