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
  ["errors", "fs", "json", "jsonl", "cache", "format", "security", "context", "config", "result", "tools/define-tool", "tools/contract-fields"],
  ["sources"],
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
  ["overview", "demo"],
  ["tools/registry"],
];

/**
 * Violations not removed yet: `"<importing file> -> <imported @/lib path>"`, each with a reason.
 * Keep this list short; an entry that no longer occurs fails the test so it gets deleted.
 */
const ALLOWLIST: ReadonlyMap<string, string> = new Map<string, string>([
  // session_overview and reconstruct_session merge the session's audit-ledger entries into the
  // timeline (seed 002), and lib/ledger/tools reads lib/forensics/session-ledgers, so the two
  // folders import each other. Removing it means passing a ledger reader into sessionOverview /
  // reconstructSession from the tool level (their tool definitions then move above lib/ledger).
  ["forensics/audit-source.ts -> @/lib/ledger/ledger-store", "forensics timeline reads the audit ledger; invert via an injected reader"],
  ["forensics/audit-source.ts -> @/lib/ledger/query", "forensics timeline reads the audit ledger; invert via an injected reader"],
  ["forensics/audit-source.ts -> @/lib/ledger/schema", "AuditEntryView type; moves with the reader above"],
]);

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

describe("lib layering", () => {
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
