/** What a Codex rollout's first lines tell of its session (issue 12 item 5). */
import { asObject, type JsonObject } from "@/lib/sources/common/json-object";
import { nonBlankString } from "@/lib/sources/common/py-compat";
import type { HeadFacts } from "@/lib/sources/common/source-format";

/** Fills what `facts` lacks from one record: `session_meta`'s `cli_version`, `cwd`, `git.branch`; `turn_context`'s `model`. */
export function codexHeadFacts(record: JsonObject, facts: HeadFacts): void {
  const payload = asObject(record.payload);
  if (payload === null) return;
  if (record.type === "session_meta") {
    facts.client_version ??= nonBlankString(payload.cli_version);
    facts.cwd ??= nonBlankString(payload.cwd);
    facts.git_branch ??= nonBlankString(asObject(payload.git)?.branch);
  }
  if (record.type === "turn_context") facts.model ??= nonBlankString(payload.model);
}
