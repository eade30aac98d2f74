/** The search benches' queries by kind (bench/search.bench.ts on SQLite, bench/team-store.bench.ts on PostgreSQL), so their figures compare. */
export const SEARCH_BENCH_QUERIES: Record<string, string[]> = {
  word: ["deprecated", "function", "methodology", "README", "timeout", "assert", "install", "permission", "database", "config", "undefined", "session", "branch", "commit", "review", "warning", "import", "module", "string", "return"],
  phrase: ['"git status"', '"npm test"', '"no such file"', '"session logs"', '"the user"', '"let me"', '"file path"', '"exit code"', '"tool result"', '"pull request"'],
  prefix: ["deprec*", "funct*", "instal*", "permis*", "datab*", "commi*", "revie*", "modul*", "strin*", "retur*"],
  filtered: ["error tool:Bash", "README role:user", "function agent:codex", "install is:error", "test tool:Read", "config role:assistant", "commit tool:Bash", "module -test", "review OR commit", "file:README the"],
};
