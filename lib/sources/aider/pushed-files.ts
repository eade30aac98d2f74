/** Which files of an Aider root a team push sends (issue 39; lib/sources/common/pushed-files). */
import { AIDER_HISTORY } from "@/lib/sources/aider/home-projects";
import { APPEND_ONLY_TRANSCRIPT, type PushedFiles } from "@/lib/sources/common/pushed-files";

/** Each project's `.aider.chat.history.md` (appended to by every run); a one-file root whatever its name. */
export const aiderPushedFiles: PushedFiles = {
  file: (rel) => (rel.split("/").at(-1) === AIDER_HISTORY ? APPEND_ONLY_TRANSCRIPT : null),
  oneFileAppendOnly: () => true,
};
