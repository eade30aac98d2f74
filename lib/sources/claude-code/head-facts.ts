/** What a Claude Code transcript's first lines tell of its session (issue 12 item 5). */
import { asObject, type JsonObject } from "@/lib/sources/common/json-object";
import { nonBlankString } from "@/lib/sources/common/py-compat";
import type { HeadFacts } from "@/lib/sources/common/source-format";

/** Fills what `facts` lacks from one record: `version`, `cwd`, `gitBranch`, and the first assistant `message.model` (not `<synthetic>`). */
export function claudeHeadFacts(record: JsonObject, facts: HeadFacts): void {
  facts.client_version ??= nonBlankString(record.version);
  facts.cwd ??= nonBlankString(record.cwd);
  facts.git_branch ??= nonBlankString(record.gitBranch);
  const model = record.type === "assistant" ? nonBlankString(asObject(record.message)?.model) : null;
  if (model && model !== "<synthetic>") facts.model ??= model;
}
