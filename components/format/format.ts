// NOTE: pure display helpers. They belong in lib/format/ (client-safe) once the lead adds it;
// kept here because UI engineers do not write lib/**. formatCount lives in lib/format/count (the
// overview's about sentence uses it too) and is re-exported here.
import { formatCount } from "@/lib/format/count";

const KB = 1024;
const MB = KB * 1024;
const GB = MB * 1024;

/** 812 B, 3.4 KB, 50.0 MB, 1.2 GB (binary units, one decimal above bytes). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return "—";
  if (bytes < KB) return `${bytes} B`;
  if (bytes < MB) return `${(bytes / KB).toFixed(1)} KB`;
  if (bytes < GB) return `${(bytes / MB).toFixed(1)} MB`;
  return `${(bytes / GB).toFixed(1)} GB`;
}

const pad2 = (n: number) => String(n).padStart(2, "0");

/** 42s, 3m 12s, 1h 04m, 2d 03h; null → "—". */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return "—";
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${pad2(s % 60)}s`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h ${pad2(Math.floor((s % 3600) / 60))}m`;
  return `${Math.floor(s / 86_400)}d ${pad2(Math.floor((s % 86_400) / 3600))}h`;
}

/** ISO instant → "2026-05-12 09:04" in the browser's time zone; null or invalid → "—". */
export function formatLocalDateTime(iso: string | null): string {
  if (!iso) return "—";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "—";
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

export { formatCount };

/** "1 line" / "2 lines". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/**
 * A cost in USD as the usage views show it: `$12.23`, `$0.042` under a dollar, `<$0.001`; `unknown`
 * when nothing could be priced (null), and a `+` when some models had no price (a lower bound).
 */
export function formatUsd(cost: number | null, partial = false): string {
  if (cost === null) return "unknown";
  const text = cost === 0 ? "$0.00" : cost < 0.001 ? "<$0.001" : cost < 1 ? `$${cost.toFixed(3)}` : `$${cost.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  return partial ? `${text}+` : text;
}
