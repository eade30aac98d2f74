/** Worker entry of the forensics scan (lib/jsonl/range-pool): maps line ranges of a transcript, one job after another. */
import { serveRangeStream } from "@/lib/jsonl/range-pool";
import { mapScanRange } from "@/lib/forensics/scan-range";

serveRangeStream(mapScanRange, (m) => [m.line.buffer, m.ts.buffer, m.typeId.buffer, m.actorId.buffer, m.extra.nums.buffer] as ArrayBuffer[]);
