import { routes } from "@/components/navigation/routes";

/**
 * The viewer URL of a line of a session file (`file` as the forensics tools report it), the
 * Audit page filtered to the session for an audit ledger entry, or null for a persisted tool
 * result (the viewer shows transcripts only).
 */
export function fileLineHref(projectKey: string, sessionRef: string, source: string, file: string, line: number): string | null {
  if (source === "main") return routes.line(projectKey, sessionRef, line);
  if (source === "subagent") return routes.line(projectKey, sessionRef, line, file.replace(/^.*\//, "").replace(/\.jsonl$/, ""));
  if (source === "audit") return routes.audit(`${projectKey}/${sessionRef}`);
  return null;
}

/** The source of a file path from `grep_jsonl`: `main`, `subagent` or `tool_result`. */
export function sourceOfFile(file: string): "main" | "subagent" | "tool_result" {
  if (/\/subagents\/[^/]+$/.test(file)) return "subagent";
  if (/\/tool-results\/[^/]+$/.test(file)) return "tool_result";
  return "main";
}
