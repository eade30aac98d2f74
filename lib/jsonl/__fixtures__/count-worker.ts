import { serveRanges } from "@/lib/jsonl/parallel";
import { countRange } from "@/lib/jsonl/__fixtures__/count-range";

serveRanges(countRange);
