// A prepared session's token usage and cost: its transcripts handed to lib/usage, the one place tokens are counted.
import { readUsage, type SessionUsage } from "@/lib/usage/session-usage";
import { sessionFiles, type ResolvedSession } from "@/lib/workspace/sessions";
import { pricingOverrideFile } from "@/lib/workspace/sources";

/**
 * The usage of one prepared session (main transcript and subagents; see lib/usage's
 * `SessionUsage`), priced with the bundled snapshot and the workspace's override file. Cached per
 * process while the files and the override file are unchanged.
 * @throws the fs error when a transcript cannot be read; AppError parse_error for a bad override file.
 */
export async function readSessionUsage(ctx: { workspaceRoot: string }, session: ResolvedSession): Promise<SessionUsage> {
  const files = (await sessionFiles(session)).flatMap((f) => (f.kind === "tool_result" ? [] : [{ kind: f.kind, path: f.path }]));
  return readUsage(`${session.project.dir}\u0000${session.row.session_ref}`, session.row.source, files, pricingOverrideFile(ctx.workspaceRoot));
}
