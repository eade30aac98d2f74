/** Worker entry of the catalog's row facts read ahead (lib/jsonl/range-pool): sessions three at a time (their small reads overlap). */
import { rowFactsTask } from "@/lib/catalog/row-facts";
import { serveRangeStream } from "@/lib/jsonl/range-pool";

serveRangeStream(rowFactsTask, undefined, { concurrency: 3 });
