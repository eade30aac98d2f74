/**
 * Every transcript source by name (issue 38): the one registry the layers above lib/sources
 * dispatch through. Claude Code and Codex answer their JSONL `transcript` format (the half in
 * lib/sources/transcript-formats); the agents behind the source contract (lib/sources/agents) their `agent`.
 */
import { AGENT_SOURCES } from "@/lib/sources/agents";
import type { AgentSource } from "@/lib/sources/common/agent-source";
import { SOURCE_LABELS } from "@/lib/sources/common/source-names";
import { readWorkscopeId } from "@/lib/sources/common/workscope";
import type { SourceFormat } from "@/lib/sources/common/source-format";
import { claudeCodeFormat } from "@/lib/sources/claude-code/format";
import { codexFormat } from "@/lib/sources/codex/format";

export { transcriptFormat } from "@/lib/sources/transcript-formats";

/** The descriptor of an agent behind the source contract: its Workscope ID is the seed's pattern in its source file. */
function agentFormat(agent: AgentSource): SourceFormat {
  return { name: agent.name, label: SOURCE_LABELS[agent.name], defaultRoots: (home, env) => agent.defaultRoots(home, env), rootKind: agent.name, pushed: agent.pushed, transcript: null, agent, workscopeId: readWorkscopeId };
}

/** Every transcript source, in the order pages list them (lib/sources/common/schema's TRANSCRIPT_SOURCES). */
export const SOURCE_FORMATS: readonly SourceFormat[] = [claudeCodeFormat, codexFormat, ...AGENT_SOURCES.map(agentFormat)];

const byName = new Map(SOURCE_FORMATS.map((f) => [f.name as string, f]));

/** The source an index row's `source` names, or null when no source has that name. */
export function sourceFormat(name: string): SourceFormat | null {
  return byName.get(name) ?? null;
}
