/** Session text for benches built from real corpus lines (../shared/corpus), sized to order. */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** `text` up to the first line end at or after `bytes` characters. */
export function cutAt(text: string, bytes: number): string {
  const end = text.indexOf("\n", bytes);
  return end === -1 ? text : text.slice(0, end + 1);
}

/**
 * One Claude Code session of about `bytes` characters: the corpus's main transcripts (no
 * subagents) one after the other, the spotter session first (so every session holds the phrase
 * bench/many-sessions searches for once), cut at a line end, with the session id and cwd made
 * the placeholders `__SID__` and `__CWD__`.
 */
export function claudeCorpusTemplate(corpus: string, bytes: number): string {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== "subagents") walk(full);
      } else if (e.name.endsWith(".jsonl") && !e.name.startsWith("agent-")) files.push(full);
    }
  };
  walk(path.join(corpus, "claude-code"));
  files.sort();
  files.sort((a, b) => Number(b.includes("258c7280")) - Number(a.includes("258c7280")));
  let text = "";
  while (text.length < bytes) {
    for (const f of files) {
      text += readFileSync(f, "utf8").split("\n").filter((l) => l.trim() !== "").join("\n") + "\n";
      if (text.length >= bytes) break;
    }
  }
  return cutAt(text, bytes).replace(/"sessionId":"[^"]*"/g, '"sessionId":"__SID__"').replace(/"cwd":"[^"]*"/g, '"cwd":"__CWD__"');
}
