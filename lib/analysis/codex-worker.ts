/** Worker entry of the Codex analysis scan: scans a whole rollout off a server's main thread (see scan-codex.ts). */
import { scanCodexRange } from "@/lib/analysis/scan-codex";
import { serveRangeStream } from "@/lib/jsonl/range-pool";

serveRangeStream(scanCodexRange);
