/** Codex source-context prefixes: user-shaped messages that are not human (contract §1.7). */
import { pyLstrip } from "@/lib/sources/common/py-compat";

/**
 * Codex source-context prefixes, checked case-sensitively after `lstrip()` (contract §1.7).
 * User-shaped messages starting with one are source-generated, not human input.
 */
export const SOURCE_CONTEXT_PREFIXES = [
  "<environment_context>",
  "# AGENTS.md",
  "<turn_aborted>",
  "<subagent_notification>",
  "<INSTRUCTIONS>",
  "A previous agent produced the plan below",
] as const;

/** True when `text`, left-stripped, starts with a {@link SOURCE_CONTEXT_PREFIXES} entry. */
export function isSourceContext(text: string): boolean {
  const stripped = pyLstrip(text);
  return SOURCE_CONTEXT_PREFIXES.some((prefix) => stripped.startsWith(prefix));
}
