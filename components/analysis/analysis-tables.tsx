import Link from "next/link";

import { formatCount } from "@/components/format/format";
import type { ContextReset, FileRead } from "@/lib/analysis/schema";

const TH = "border-b border-line px-2 py-1.5 text-left text-2xs font-semibold uppercase tracking-wide text-muted";
const TD = "border-b border-line px-2 py-1 align-top";

/** The viewer URL; a line is linked as `${viewerHref}#L<n>`. */
type LineHref = string;

function LineLink({ line, href }: { line: number | null; href: LineHref }) {
  if (line === null) return <span className="text-faint">—</span>;
  return (
    <Link href={`${href}#L${line}`} className="font-mono text-accent hover:underline">
      L{line}
    </Link>
  );
}

/** Below a cut table: how many rows are shown, and a link that shows them all. */
export function MoreRows({ shown, total, allHref }: { shown: number; total: number; allHref: string }) {
  if (shown >= total) return null;
  return (
    <p className="text-xs text-muted">
      Showing the first {formatCount(shown)} of {formatCount(total)}.{" "}
      <Link href={allHref} className="text-accent hover:underline">
        Show all {formatCount(total)}
      </Link>{" "}
      (slow to render on a very long session).
    </p>
  );
}

/** Context resets (seed 003): where, from how many cached tokens to how many. */
export function ResetsTable({ resets, lineHref }: { resets: readonly ContextReset[]; lineHref: LineHref }) {
  if (resets.length === 0) return <p className="text-sm text-muted">No context reset: the cached prompt never dropped by more than the threshold.</p>;
  return (
    // Scrolls sideways on a narrow screen instead of pushing the page wider.
    <div className="overflow-x-auto">
      <table aria-label="Context resets" className="w-full border-collapse bg-surface text-sm tabular-nums">
        <thead>
          <tr>
            {["#", "Line", "Cache read before → after", "Position", "Cache creation", "Total input"].map((h) => (
              <th key={h} className={TH}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {resets.map((r, i) => (
            <tr key={r.session_line}>
              <td className={TD}>{i + 1}</td>
              <td className={TD}>
                <LineLink line={r.session_line} href={lineHref} />
              </td>
              <td className={TD}>
                {formatCount(r.from_tokens)} → {formatCount(r.to_tokens)}
              </td>
              <td className={TD}>{r.position_percent}%</td>
              <td className={TD}>{r.cache_creation_tokens === null ? <span className="text-faint" title="not recorded by this source">n/a</span> : formatCount(r.cache_creation_tokens)}</td>
              <td className={TD}>{formatCount(r.total_input_tokens)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Every Read: line, batch, result, persisted or inline, and a reset between the read and its use. */
export function ReadsTable({ reads, lineHref }: { reads: readonly FileRead[]; lineHref: LineHref }) {
  if (reads.length === 0) return <p className="text-sm text-muted">The agent made no Read call.</p>;
  return (
    // Scrolls sideways on a narrow screen instead of pushing the page wider.
    <div className="overflow-x-auto">
      <table aria-label="File reads" className="w-full border-collapse bg-surface text-sm">
        <thead>
          <tr>
            {["#", "Line", "Batch", "File", "Result", "Storage", "Reset before use"].map((h) => (
              <th key={h} className={TH}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {reads.map((r) => (
            <tr key={`${r.sequence}`} data-reset-before-use={r.reset_before_use_line !== null || undefined} className={r.reset_before_use_line !== null ? "bg-warn-soft" : undefined}>
              <td className={`${TD} tabular-nums`}>{r.sequence}</td>
              <td className={TD}>
                <LineLink line={r.line} href={lineHref} />
              </td>
              <td className={`${TD} tabular-nums`}>{r.batch}</td>
              <td className={`${TD} max-w-[28rem] truncate font-mono text-xs`} title={r.file_path ?? undefined}>
                {r.file_path ?? <span className="text-faint">—</span>}
              </td>
              <td className={TD}>{r.success === null ? <span className="text-faint">no result</span> : r.success ? <span className="text-ok">ok</span> : <span className="text-danger">error</span>}</td>
              <td className={TD}>{r.persisted ? <span title="a tool-results/ file exists for this call">persisted</span> : <span className="text-muted">inline</span>}</td>
              <td className={TD}>
                <LineLink line={r.reset_before_use_line} href={lineHref} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
