// The one definition of each session count (issue 28): files read, reads failed, commands run, turns, errors.
import { TOOL_FAMILIES, type ToolFamily } from "@/lib/forensics/classify";
import type { SessionStats } from "@/lib/forensics/scan";
import type { SessionCounts } from "@/lib/forensics/schema";

/**
 * A session's counts, written once and shown by the `about` paragraph, the overview's Details,
 * the Analysis tab and lists (issue 28: they disagreed). A tool call counts in the family
 * {@link toolFamily} gives it (`Read`, `cat`/`sed`/`head` through a shell: a file read; other shell
 * commands: a command run), in the main transcript and subagent transcripts alike (`main` and
 * `subagents` split it); a read failed when its result was an error. `turns` are the indexed
 * turns; `errors` every error finding (failed tool calls, API errors, interrupted turns).
 */
export function sessionCounts(stats: SessionStats, turnCount: number): SessionCounts {
  const fam = (f: ToolFamily) => stats.families.get(f) ?? { called: 0, failed: 0 };
  const sub = (f: ToolFamily) => stats.subagentFamilies[f] ?? { called: 0, failed: 0 };
  const split = (f: ToolFamily) => ({ total: fam(f).called, main: fam(f).called - sub(f).called, subagents: sub(f).called });
  let errors = 0;
  for (const n of stats.errorCounts.values()) errors += n;
  const byFamily = {} as SessionCounts["by_family"];
  for (const f of TOOL_FAMILIES) byFamily[f] = { called: fam(f).called, failed: fam(f).failed, subagent_called: sub(f).called };
  return {
    turns: turnCount,
    files_read: split("read"),
    reads_failed: fam("read").failed,
    commands_run: split("run"),
    commands_failed: fam("run").failed,
    tool_calls: stats.toolCalls,
    errors,
    by_family: byFamily,
  };
}
