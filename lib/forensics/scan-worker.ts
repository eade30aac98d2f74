/** Worker entry of the forensics scan (lib/jsonl/range-pool): maps line ranges of a transcript, one job after another. */
import { columnBuffers } from "@/lib/columns/typed-columns";
import { serveRangeStream } from "@/lib/jsonl/range-pool";
import { mapScanRange } from "@/lib/forensics/scan-range";

serveRangeStream(mapScanRange, columnBuffers);
