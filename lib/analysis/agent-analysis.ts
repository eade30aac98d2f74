/**
 * Seed 003's figures for a session of an agent read through the source contract (issue 38): its
 * token progression and context resets from the usage its reader puts on each line; what the
 * agent does not record is said, never drawn as 0.
 */
import { detectContextResets } from "@/lib/analysis/context-resets";
import type { ContextReset, TokenPoint } from "@/lib/analysis/schema";
import type { AgentTranscript } from "@/lib/sources/common/agent-source";

/** The `absent` entry of an agent that records no cache creation (cache write) tokens. */
const NO_CACHE_WRITE = "cache_write";

/**
 * One token point per usage the records carry, in line order: fresh input, output (reasoning
 * counted in, as lib/usage bills it), cache reads and cache creation — null when the agent
 * records none (`absent` has `cache_write`). Usage on a system record is a run's total (a run's
 * end summing its requests), not one response: it is not a point of the progression.
 */
export function agentTokenPoints(transcript: AgentTranscript): TokenPoint[] {
  const noCacheWrite = transcript.absent.includes(NO_CACHE_WRITE);
  const points: TokenPoint[] = [];
  for (const r of transcript.records) {
    if (r.role === "system") continue;
    for (const u of r.usage) points.push({ line: r.line, cache_read: u.cacheRead, cache_creation: noCacheWrite ? null : u.cacheWrite, input: u.input, output: u.output + u.reasoning });
  }
  return points;
}

/** The context resets of an agent session (seed 003's detector over {@link agentTokenPoints}). */
export function agentContextResets(transcript: AgentTranscript, threshold?: number): ContextReset[] {
  return detectContextResets(agentTokenPoints(transcript), transcript.records.length, threshold);
}

/** Why reads and their persistence are not reported for an agent session (seed 003 maps `Read` calls to persisted tool-result files). */
export const AGENT_READS_REASON = "This agent's sessions have no tool-results/ folder and no Read tool results to map: reads and their persistence are not analysed";

/**
 * The token notes of an agent session: which series the agent does not record, figures the agent
 * rounds, and a session with no usage at all.
 */
export function agentTokenNotes(transcript: AgentTranscript, points: readonly TokenPoint[]): string[] {
  const notes: string[] = [];
  const totals = transcript.records.filter((r) => r.role === "system" && r.usage.length > 0).length;
  if (totals > 0) notes.push(`${totals} line${totals === 1 ? "" : "s"} carr${totals === 1 ? "ies" : "y"} a run's total usage, not one response's: left out of the token progression and its resets.`);
  if (points.length === 0) notes.push(totals > 0 ? "No line carries one response's usage: no token progression." : "No record carries usage: no token figures.");
  else {
    if (transcript.absent.includes(NO_CACHE_WRITE)) notes.push("This agent records no cache creation tokens: that series is left out (null), not drawn as 0.");
    if (transcript.records.some((r) => r.usage.some((u) => u.approximate))) notes.push("The agent reports its token figures rounded (1.2k): they are approximate.");
  }
  return notes;
}

/** Lines the reader could not read (its warnings that name a line), each once. */
export function agentUnreadableLines(transcript: AgentTranscript): number {
  const lines = new Set<number>();
  for (const w of transcript.warnings) {
    const m = /^lines? (\d+)/.exec(w.where);
    if (m) lines.add(Number(m[1]));
  }
  return lines.size;
}
