/** Test worker entry: serves `countRange` to a range pool. */
import { serveRangeStream } from "@/lib/jsonl/range-pool";
import { countRange } from "@/lib/jsonl/__fixtures__/count-range";

serveRangeStream(countRange);
