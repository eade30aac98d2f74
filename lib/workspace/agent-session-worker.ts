/** Worker entry of prepare's agent session reads (lib/jsonl/range-pool): one session after another. */
import { serveRangeStream } from "@/lib/jsonl/range-pool";
import { readAgentSession } from "@/lib/workspace/agent-session-read";

serveRangeStream(readAgentSession, (read) => (read.starts === null ? [] : [read.starts.buffer as ArrayBuffer]));
