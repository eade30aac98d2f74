/** Worker entry of prepare's analysis of many small source files (lib/jsonl/range-pool): one file per task. */
import { serveRangeStream } from "@/lib/jsonl/range-pool";
import { analysisTask, analysisTransfer } from "@/lib/workspace/prepare-plan";

serveRangeStream(analysisTask, analysisTransfer);
