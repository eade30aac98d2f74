/** Worker entry of the catalog's row facts read ahead (lib/jsonl/range-pool): one session per task. */
import { rowFactsTask } from "@/lib/catalog/row-facts";
import { serveRangeStream } from "@/lib/jsonl/range-pool";

serveRangeStream(rowFactsTask);
