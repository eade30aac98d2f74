/** Worker entry of the catalog's background risk fill (lib/jsonl/range-pool): one session after another. */
import { riskFillTask } from "@/lib/catalog/risk-fill";
import { serveRangeStream } from "@/lib/jsonl/range-pool";

serveRangeStream(riskFillTask);
