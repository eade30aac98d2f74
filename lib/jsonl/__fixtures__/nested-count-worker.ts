/** Test worker entry: serves `nestedCount` (it starts a worker of its own) to a range pool. */
import { serveRangeStream } from "@/lib/jsonl/range-pool";
import { nestedCount } from "@/lib/jsonl/__fixtures__/nested-count";

serveRangeStream(nestedCount);
