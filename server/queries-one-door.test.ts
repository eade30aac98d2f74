import fs from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

/**
 * Issue 8, item 1 ("the registry is the only entry; the dashboard's reads and writes are tool
 * calls too"): the dashboard's server queries reach lib/ only through registered tools. A query
 * module may import, as values, tool definitions (`@/lib/<domain>/tools`, and
 * `@/lib/tools/session-forensics` for the two forensics tools above the ledger), the registry and the
 * error helpers; anything else from lib/ only as a type — or one of the named constants below
 * (page sizes the page and the tool share).
 */
const QUERIES = path.resolve(__dirname, "queries");

// `tools/query-input` reads a tool's input from a URL's query string (digits-only numbers, issue 35 item 8): tool machinery, not a read.
const ALLOWED_MODULE = /^@\/lib\/(?:.+\/tools|tools\/(?:registry|session-forensics|query-input)|errors)$/;
const ALLOWED_CONSTANTS: ReadonlySet<string> = new Set(["EVIDENCE_TURNS_PAGE"]);
// Who is signed in to a team server (the request's actor, issue 39) and where signing out goes: the door's caller, not a read.
const QUERY_EXCEPTIONS: ReadonlyMap<string, readonly string[]> = new Map([["workspace.ts", ["@/lib/context { requestActor }", "@/lib/team/auth { LOGOUT_PATH }"]]]);

/** Value imports of `@/lib/...` in a source text that break the rule: `"<module> { names }"`. */
function strayLibImports(text: string): string[] {
  const stray: string[] = [];
  const re = /import\s+(type\s+)?([^;"'`]*?)\s+from\s+["'](@\/lib\/[^"']+)["']|import\s*\(\s*["'](@\/lib\/[^"']+)["']\s*\)|export\s+[^;"'`]*?\s+from\s+["'](@\/lib\/[^"']+)["']|import\s+["'](@\/lib\/[^"']+)["']/g;
  for (const m of text.matchAll(re)) {
    const bare = m[4] ?? m[5] ?? m[6];
    if (bare !== undefined) {
      if (!ALLOWED_MODULE.test(bare)) stray.push(bare);
      continue;
    }
    const [, typeOnly, clause = "", spec = ""] = m;
    if (typeOnly || ALLOWED_MODULE.test(spec)) continue;
    const named = /\{([\s\S]*)\}/.exec(clause);
    const defaultOrNamespace = clause.replace(/\{[\s\S]*\}/, "").replace(/,/g, "").trim();
    const values = (named?.[1] ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== "" && !s.startsWith("type "))
      .map((s) => s.split(/\s+as\s+/)[0]!.trim())
      .filter((name) => !ALLOWED_CONSTANTS.has(name));
    if (defaultOrNamespace !== "") values.unshift(defaultOrNamespace);
    if (values.length > 0) stray.push(`${spec} { ${values.join(", ")} }`);
  }
  return stray;
}

describe("server/queries: one door into the core", () => {
  it("recognises stray and allowed imports", () => {
    expect(strayLibImports('import { getProject } from "@/lib/workspace/projects";')).toEqual(["@/lib/workspace/projects { getProject }"]);
    expect(strayLibImports('import { type SessionDetail, getSessionDetail as g } from "@/lib/workspace/projects";')).toEqual(["@/lib/workspace/projects { getSessionDetail }"]);
    expect(strayLibImports('import * as p from "@/lib/workspace/projects";')).toEqual(["@/lib/workspace/projects { * as p }"]);
    expect(strayLibImports('const m = import("@/lib/workspace/projects");')).toEqual(["@/lib/workspace/projects"]);
    expect(strayLibImports('import type { SessionDetail } from "@/lib/workspace/schema";')).toEqual([]);
    expect(strayLibImports('import { type SessionDetail } from "@/lib/workspace/schema";')).toEqual([]);
    expect(strayLibImports('import { getProjectTool } from "@/lib/workspace/tools";\nimport { invokeToolForUi } from "@/lib/tools/registry";\nimport { isAppError } from "@/lib/errors";')).toEqual([]);
    expect(strayLibImports('import { EVIDENCE_TURNS_PAGE } from "@/lib/evidence/schema";')).toEqual([]);
    expect(strayLibImports('import "server-only";\nimport { cache } from "react";\nimport { readSources } from "@/lib/workspace/sources";')).toEqual(["@/lib/workspace/sources { readSources }"]);
    expect(strayLibImports('export { getProject } from "@/lib/workspace/projects";')).toEqual(["@/lib/workspace/projects"]);
  });

  const files = fs.readdirSync(QUERIES).filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f));

  it("has query modules to check", () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(files)("queries/%s imports lib/ values only as tools, the registry or errors", (file) => {
    expect(strayLibImports(fs.readFileSync(path.join(QUERIES, file), "utf8"))).toEqual(QUERY_EXCEPTIONS.get(file) ?? []);
  });
});

/**
 * The dashboard's route handlers (server/http) under the same rule, but for what is a door's own
 * machinery rather than a read: the change feed's subscription (a stream of change events,
 * not a tool result), the HTTP door's Host/Origin policy and body limit (the tool door and MCP over
 * HTTP), a team server's actor header and roles, and the push door (issue 39): pushed bytes land in
 * the server's mirror of each machine's source files, which the sync then prepares like any source
 * folder (a tool call would keep a copy of every pushed byte in the audit blobs).
 */
const HTTP = path.resolve(__dirname, "http");
const HTTP_EXCEPTIONS: ReadonlyMap<string, readonly string[]> = new Map([
  ["events.ts", ["@/lib/ledger/change-feed { getChangeFeed }"]],
  ["tools.ts", ["@/lib/security/local-request { localRequestDecisions }", "@/lib/security/request-limits { HTTP_BODY_LIMIT_BYTES, readLimited }"]],
  ["mcp.ts", ["@/lib/security/local-request { localRequestDecisions }", "@/lib/security/request-limits { HTTP_BODY_LIMIT_BYTES }"]],
  ["team-actor.ts", ["@/lib/team/auth { ACTOR_HEADER }", "@/lib/team/tokens { TEAM_ROLES }"]],
  ["team-push.ts", ["@/lib/security/request-limits { HTTP_BODY_LIMIT_BYTES, readLimited }", "@/lib/team/push/protocol { CHUNK_BYTES }", "@/lib/team/receive/mirror { answerManifest, receiveBatch, receiveChunk }"]],
]);

describe("server/http: one door into the core", () => {
  const handlers = fs.readdirSync(HTTP).filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f));

  it.each(handlers)("http/%s imports lib/ values only as tools, the registry or errors (or its listed door machinery)", (file) => {
    expect(strayLibImports(fs.readFileSync(path.join(HTTP, file), "utf8"))).toEqual(HTTP_EXCEPTIONS.get(file) ?? []);
  });
});
