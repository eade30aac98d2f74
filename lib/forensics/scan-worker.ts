/** Worker entry of the forensics scan (lib/jsonl/parallel): maps one line range of a transcript. */
import { serveRanges } from "@/lib/jsonl/parallel";
import { mapScanRange } from "@/lib/forensics/scan-range";

serveRanges(mapScanRange);
