import { formatBytes } from "@/components/format/format";

import { Badge } from "./badge";

type LineFlagsProps = {
  malformed: boolean;
  isLast: boolean;
  invalidUtf8: boolean;
  truncated?: boolean;
  clipped?: boolean;
  rawBytes: number;
  sha256: string;
};

/** The badges that say what a line is: malformed, cut off at end of file, invalid UTF-8, trimmed, clipped. */
export function LineFlags({ malformed, isLast, invalidUtf8, truncated, clipped, rawBytes, sha256 }: LineFlagsProps) {
  return (
    <>
      {malformed && (
        <Badge tone="danger" title="Not a valid JSON object. It is shown as is and still counts as a line.">
          malformed
        </Badge>
      )}
      {malformed && isLast && (
        <Badge tone="danger" title="The file ends inside this record: the last write was probably cut off.">
          incomplete last line
        </Badge>
      )}
      {invalidUtf8 && (
        <Badge tone="warn" title="The raw line has bytes that are not valid UTF-8; they are shown as �.">
          invalid UTF-8
        </Badge>
      )}
      {truncated && (
        <Badge tone="warn" title="Compact mode trimmed part of this record. Full mode shows the raw line.">
          truncated
        </Badge>
      )}
      {clipped && (
        <Badge tone="warn" title={`The server sent only the start of this ${formatBytes(rawBytes)} line.`}>
          clipped
        </Badge>
      )}
      <span className="ml-auto shrink-0 pl-2 font-sans text-2xs text-faint tabular-nums" title={`${rawBytes} bytes · sha256 ${sha256}`}>
        {formatBytes(rawBytes)}
      </span>
    </>
  );
}
