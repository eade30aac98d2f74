/**
 * Every transcript source by name (issue 38): the one registry the layers above lib/sources
 * dispatch through. Claude Code and Codex answer their {@link TranscriptFormat}; the agents behind
 * the source contract (lib/sources/agents) their {@link AgentSource}.
 */
import { AGENT_SOURCES } from "@/lib/sources/agents";
import { claudeCodeFormat } from "@/lib/sources/claude-code/format";
import { codexFormat } from "@/lib/sources/codex/format";
import type { AgentSource } from "@/lib/sources/common/agent-source";
import { SOURCE_LABELS } from "@/lib/sources/common/schema";
import { readWorkscopeId } from "@/lib/sources/common/workscope";
import type { SourceFormat, TranscriptFormat } from "@/lib/sources/common/source-format";

/** The descriptor of an agent behind the source contract: its Workscope ID is the seed's pattern in its source file. */
function agentFormat(agent: AgentSource): SourceFormat {
  return { name: agent.name, label: SOURCE_LABELS[agent.name], transcript: null, agent, workscopeId: readWorkscopeId };
}

/** Every transcript source, in the order pages list them (lib/sources/common/schema's TRANSCRIPT_SOURCES). */
export const SOURCE_FORMATS: readonly SourceFormat[] = [claudeCodeFormat, codexFormat, ...AGENT_SOURCES.map(agentFormat)];

const byName = new Map(SOURCE_FORMATS.map((f) => [f.name as string, f]));

/** The source an index row's `source` names, or null when no source has that name. */
export function sourceFormat(name: string): SourceFormat | null {
  return byName.get(name) ?? null;
}

/** The JSONL transcript format of `source` (Claude Code, Codex), or null for an agent behind the contract and an unknown name. */
export function transcriptFormat(source: string): TranscriptFormat | null {
  return byName.get(source)?.transcript ?? null;
}
