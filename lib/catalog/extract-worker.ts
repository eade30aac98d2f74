/** Worker entry of the catalog's line extraction (lib/jsonl/range-pool): one session file after another. */
import { extractDocLines } from "@/lib/catalog/extract-lines";
import { columnBuffers } from "@/lib/columns/typed-columns";
import { serveRangeStream } from "@/lib/jsonl/range-pool";

serveRangeStream(extractDocLines, columnBuffers);
