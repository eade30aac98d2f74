/** Worker entry of the catalog's full-text fill (lib/jsonl/range-pool): one whole fill per task. */
import { fullTextFillTask } from "@/lib/catalog/full-text-fill";
import { serveRangeStream } from "@/lib/jsonl/range-pool";

serveRangeStream(fullTextFillTask);
