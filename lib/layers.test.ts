/** The lib layering: allowed imports and no import cycles. */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Import-direction rule for `lib/` (DEVELOPERS guide, house style 3.1 #5: boundaries are
 * enforced by tests, not prose). Folders form layers, lowest first; a module may import only
 * from its own folder or a lower layer. Test files, `__fixtures__` folders (test-only helpers)
 * and `lib/testing` are exempt.
 */
const LAYERS: readonly (readonly string[])[] = [
  // Base utilities: may import each other, never anything above.
  ["errors", "async", "fs", "json", "columns", "jsonl", "cache", "format", "security", "context", "config", "tools/define-tool", "tools/contract-fields", "tools/input-fields", "tools/query-input"],
  ["sources"],
  // Token accounting and cost (issue 28): transcripts in, totals out; workspace, forensics and lists read it.
  ["usage"],
  ["workspace"],
  ["session-reader"],
  // Synthesis reads evidence cards, so evidence sits below it.
  ["evidence"],
  ["synthesis"],
  ["analysis"],
  ["forensics"],
  ["ledger"],
  // The derived SQLite catalog: reads every domain below it to fill its rows.
  ["catalog"],
  // session_overview and reconstruct_session are defined above the ledger, which passes its reader in.
  // The team server (issue 39: tokens, push, its PostgreSQL database) reads the catalog and the workspace.
  ["overview", "demo", "pipeline", "tools/session-forensics", "team"],
  ["tools/registry"],
];

/**
 * Violations not removed yet: `"<importing file> -> <imported @/lib path>"`, each with a reason.
 * Keep this list short; an entry that no longer occurs fails the test so it gets deleted.
 */
const ALLOWLIST: ReadonlyMap<string, string> = new Map<string, string>([]);

const LIB = path.resolve(__dirname);

/** The unit (folder, or `tools/<file>` / root file name) a lib-relative path belongs to. */
function unitOf(rel: string): string {
  const parts = rel.replace(/\.(tsx?|js)$/, "").split("/");
  if (parts[0] === "tools") return `tools/${parts[1] ?? ""}`;
  return parts[0] ?? "";
}

function layerOf(unit: string): number | undefined {
  const index = LAYERS.findIndex((layer) => layer.includes(unit));
  return index === -1 ? undefined : index;
}

function listSources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (path.relative(LIB, full) === "testing" || entry.name === "__fixtures__") continue;
      out.push(...listSources(full));
    } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
      out.push(full);
    }
  }
  return out;
}

/** Every `@/lib/...` specifier (static, dynamic, type-only, re-export) plus relative ones resolved. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  const specs: string[] = [];
  const re = /(?:from\s+|import\s*\(\s*|import\s+)["']([^"']+)["']/g;
  for (const match of text.matchAll(re)) {
    const spec = match[1] ?? "";
    if (spec.startsWith("@/lib/")) specs.push(spec.slice("@/lib/".length));
    else if (spec.startsWith(".")) {
      const rel = path.relative(LIB, path.resolve(path.dirname(file), spec));
      if (!rel.startsWith("..")) specs.push(rel.split(path.sep).join("/"));
    }
  }
  return specs;
}

function findViolations(): { key: string; message: string }[] {
  const found: { key: string; message: string }[] = [];
  for (const file of listSources(LIB)) {
    const rel = path.relative(LIB, file).split(path.sep).join("/");
    const from = unitOf(rel);
    const fromLayer = layerOf(from);
    for (const target of importsOf(file)) {
      const to = unitOf(target);
      if (to === from || to === "testing") continue;
      const toLayer = layerOf(to);
      const key = `${rel} -> @/lib/${target}`;
      if (fromLayer === undefined || toLayer === undefined) {
        found.push({ key, message: `${key}: folder ${fromLayer === undefined ? from : to} has no layer in LAYERS` });
      } else if (toLayer > fromLayer || (toLayer === fromLayer && fromLayer !== 0)) {
        found.push({
          key,
          message: `${key}: ${from} (layer ${fromLayer}) must not import ${to} (layer ${toLayer}); move the shared part down or invert the dependency`,
        });
      }
    }
  }
  return found;
}

/** The lib-relative file (`a/b.ts`) an import specifier names, or undefined when it is not a lib source file. */
function resolveSpec(spec: string): string | undefined {
  for (const candidate of [`${spec}.ts`, `${spec}.tsx`, `${spec}/index.ts`, spec]) {
    if (/\.tsx?$/.test(candidate) && fs.existsSync(path.join(LIB, candidate))) return candidate;
  }
  return undefined;
}

/** The lib specifiers a file loads at run time: comments and `import type` / `export type` left out (erased by TypeScript). */
function runtimeImportsOf(file: string): string[] {
  const text = fs.readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const specs: string[] = [];
  const re = /(?:^\s*(?:import|export)\s+(?!type\s)(?:[^"';]*?\sfrom\s+)?|import\s*\(\s*)["']([^"']+)["']/gm;
  for (const match of text.matchAll(re)) {
    const spec = match[1] ?? "";
    if (spec.startsWith("@/lib/")) specs.push(spec.slice("@/lib/".length));
    else if (spec.startsWith(".")) specs.push(path.relative(LIB, path.resolve(path.dirname(file), spec)).split(path.sep).join("/"));
  }
  return specs;
}

/** Run-time import cycles between lib files: each strongly connected component of more than one file. */
function findCycles(): string[][] {
  const graph = new Map<string, string[]>();
  for (const file of listSources(LIB)) {
    const rel = path.relative(LIB, file).split(path.sep).join("/");
    graph.set(rel, runtimeImportsOf(file).flatMap((spec) => resolveSpec(spec) ?? []));
  }
  return cyclesOf(graph);
}

/** The strongly connected components of more than one node (Tarjan), each sorted. */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's strongly connected components, iterative over the sorted files.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (start: string) => {
    const work: [string, number][] = [[start, 0]];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const [node, i] = top;
      const edges = graph.get(node) ?? [];
      if (i < edges.length) {
        top[1] += 1;
        const to = edges[i]!;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push([to, 0]);
        } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]![0];
        low.set(parent, Math.min(low.get(parent)!, low.get(node)!));
      }
      if (low.get(node) === index.get(node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        if (component.length > 1) cycles.push(component.sort());
      }
    }
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return cycles;
}

/** The layer order the README documents ("Inside `lib/`, folders import downward only, lowest first: …"), as sets of unit names. */
function documentedLayers(): string[][] | null {
  const readme = path.join(LIB, "..", "README.md");
  if (!fs.existsSync(readme)) return null;
  const text = fs.readFileSync(readme, "utf8").replace(/\s+/g, " ");
  const match = /lowest first: (.*?); `lib\/layers\.test\.ts`/.exec(text);
  if (!match) return null;
  return match[1]!.split("→").map((group) => [...group.matchAll(/`([^`]+)`/g)].map((m) => m[1]!).sort());
}

describe("lib layering", () => {
  it("the layers are the README's, in its order", () => {
    expect(documentedLayers()).toEqual(LAYERS.map((layer) => [...layer].sort()));
  });

  it("no lib files import each other in a cycle", () => {
    expect(findCycles()).toEqual([]);
  });

  it("the cycle check sees a cycle, however long", () => {
    const graph = new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a", "d"]], ["d", []], ["e", ["d", "e"]]]);
    expect(cyclesOf(graph)).toEqual([["a", "b", "c"]]);
  });

  const violations = findViolations();

  it("lib modules import only their own folder or lower layers", () => {
    const unexpected = violations.filter((v) => !ALLOWLIST.has(v.key)).map((v) => v.message);
    expect(unexpected).toEqual([]);
  });

  it("the allowlist holds no stale entries", () => {
    const keys = new Set(violations.map((v) => v.key));
    expect([...ALLOWLIST.keys()].filter((key) => !keys.has(key))).toEqual([]);
  });
});
