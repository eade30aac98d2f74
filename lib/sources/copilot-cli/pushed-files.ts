/** Which files of a Copilot CLI root a team push sends (issue 39; lib/sources/common/pushed-files). */
import { APPEND_ONLY_TRANSCRIPT, type PushedFiles } from "@/lib/sources/common/pushed-files";
import { EVENTS_FILE } from "@/lib/sources/copilot-cli/discover";

/** Each session's `events.jsonl` (appended to), nothing else of the session state. */
export const copilotPushedFiles: PushedFiles = {
  file: (rel) => (rel.split("/").at(-1) === EVENTS_FILE ? APPEND_ONLY_TRANSCRIPT : null),
  oneFileAppendOnly: () => true,
};
