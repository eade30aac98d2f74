/** Claude Code transcript lines built for tests. */
/**
 * Claude Code transcript lines for tests: per prompt, one human user record and one assistant
 * reply, all with `cwd` and `gitBranch` (era-2 shape). `from` numbers the prompts, so appending
 * `claudeLines(id, cwd, 3, 2)` to a file written with `claudeLines(id, cwd, 2)` grows it by two turns.
 */
export function claudeLines(sessionId: string, cwd: string, prompts: number, from = 1): string {
  const lines: string[] = [];
  for (let i = from; i < from + prompts; i += 1) {
    const ts = new Date(Date.UTC(2026, 10, 1) + i * 1000).toISOString();
    const base = { parentUuid: null, isSidechain: false, userType: "external", cwd, sessionId, version: "2.1.6", gitBranch: "main" };
    lines.push(JSON.stringify({ ...base, type: "user", uuid: `${sessionId}-u${i}`, timestamp: ts, message: { role: "user", content: `prompt ${i}` } }));
    lines.push(JSON.stringify({ ...base, type: "assistant", uuid: `${sessionId}-a${i}`, timestamp: ts, message: { id: `m${i}`, type: "message", role: "assistant", model: "claude-test", content: [{ type: "text", text: `reply ${i}` }], usage: { input_tokens: 1, output_tokens: 2 } } }));
  }
  return `${lines.join("\n")}\n`;
}
