/** Worker entry of `analyzeCodexTranscript`: reads byte ranges of a big rollout into the records its analyzer folds (issue 13), for a RangePool. */
import { columnBuffers } from "@/lib/columns/typed-columns";
import { serveRangeStream } from "@/lib/jsonl/range-pool";
import { codexRangeRecords } from "@/lib/sources/codex/range-records";

serveRangeStream(codexRangeRecords, columnBuffers);
