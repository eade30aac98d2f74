import { AppError } from "@/lib/errors";
import { headMemoPath, loadHeadMemo, saveHeadMemo } from "@/lib/team/push/head-memo";
import { pushOnce, type PushSource, type PushSummary } from "@/lib/team/push/push-client";
import { AGENT_SOURCE_NAMES } from "@/lib/sources/common/agent-source";
import type { AgentRoots } from "@/lib/workspace/sources";
import { resolveSourceRoots } from "@/server/cli/source-roots";

export type PushFlags = { workspace: string; server?: string; token?: string; watch: boolean; json: boolean; claude?: string[]; codex?: string[]; agents?: AgentRoots };

/**
 * `casefile push --server URL --token TOKEN [--watch] [--json]` plus prepare's source flags
 * (without any: prepare's default roots, {@link resolveSourceRoots}): sends the machine's
 * session files to a team server (issue 39; lib/team/push). Prints what it did, `--json` as
 * `{sessions_sent, sessions_unchanged, bytes_sent, errors}`; exit 1 when a file failed. With
 * `--watch` it pushes again whenever a root changes (the dashboard's source watcher), printing
 * one summary per push, until interrupted. The token may come from `$CASEFILE_TOKEN` instead
 * (not shown in the process list).
 * @throws AppError invalid_input without --server or a token, or no source; what the push throws.
 */
export async function runPush(flags: PushFlags): Promise<number> {
  const server = flags.server ?? process.env.CASEFILE_SERVER;
  const token = flags.token ?? process.env.CASEFILE_TOKEN;
  if (!server) throw new AppError("invalid_input", "push needs --server URL (the team server)", { hint: "e.g. casefile push --server https://casefile.example:3000 --token cft_…" });
  if (!token) throw new AppError("invalid_input", "push needs --token TOKEN (or $CASEFILE_TOKEN)", { hint: "ask the team server's admin for one: casefile token create --machine NAME --role push" });
  const { claudeRoots, codexRoots, agentRoots } = resolveSourceRoots(flags);
  const sources: PushSource[] = [
    ...claudeRoots.map((p) => ({ kind: "claude" as const, path: p })),
    ...codexRoots.map((p) => ({ kind: "codex" as const, path: p })),
    ...AGENT_SOURCE_NAMES.flatMap((kind) => (agentRoots[kind] ?? []).map((p) => ({ kind, path: p }))),
  ];
  const print = (s: PushSummary) => process.stdout.write(flags.json ? `${JSON.stringify(s)}\n` : render(s));
  // Heads of files unchanged since the last push are not read again (~/.casefile/push-heads.json).
  const memo = loadHeadMemo(headMemoPath());
  const headCache = memo.cache;
  if (!flags.watch) {
    const summary = await pushOnce(sources, { server, token, headCache }).finally(() => saveHeadMemo(memo));
    print(summary);
    return summary.errors.length > 0 ? 1 : 0;
  }
  // Only --watch needs the watcher (and the sync modules it imports): a one-shot push starts without them.
  const { createCoreContext, stderrLogger } = await import("@/lib/context");
  const { SourceWatcher } = await import("@/lib/workspace/source-watcher");
  const watcher = new SourceWatcher<PushSummary>(createCoreContext(flags.workspace, { log: stderrLogger }), {
    roots: sources.map((s) => s.path),
    debounceMs: 500,
    sync: () => pushOnce(sources, { server, token, headCache }).finally(() => saveHeadMemo(memo)),
    onSync: print,
    onError: (error) => process.stderr.write(`push failed: ${error instanceof Error ? error.message : String(error)}; retrying on the next change\n`),
  });
  await watcher.start();
  // The watcher's handles do not hold the process open (the dashboard's server does): this does, until a signal.
  const alive = setInterval(() => undefined, 2 ** 30);
  await new Promise<void>((resolve) => {
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => resolve());
  });
  clearInterval(alive);
  await watcher.close();
  return 0;
}

function render(s: PushSummary): string {
  const mib = (s.bytes_sent / 1024 / 1024).toFixed(1);
  const lines = [`pushed ${s.sessions_sent} session(s), ${s.sessions_unchanged} unchanged, ${mib} MiB sent`];
  for (const e of s.errors) lines.push(`  error: ${e.field}: ${e.message} (${e.hint})`);
  return `${lines.join("\n")}\n`;
}
