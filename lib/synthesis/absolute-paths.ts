/** Absolute paths found in work-item prose (they must not leak). */
/*
 * Every absolute path in a work item is refused (seed 001: it leaks user names and machine layout).
 * Text that only looks like a path (URL routes, slash commands, fractions, `and/or`) is not: a
 * POSIX path counts when it starts at a word boundary with a well-known root and goes below it
 * (`/home/…`, `/tmp/…`); Windows drive and UNC paths and `file://` URLs always count; `/dev/null`
 * and other universal device files are allowed.
 */

const POSIX_ROOTS = [
  "home", "Users", "root", "tmp", "var", "etc", "opt", "usr", "mnt", "media", "srv", "private", "Volumes",
  "work", "workspace", "workspaces", "data", "proc", "dev", "sys", "bin", "sbin", "lib", "lib64", "nix",
  "snap", "run", "boot", "app", "cygdrive", "Library", "Applications", "System",
];
const DEVICE_FILES = new Set(["/dev/null", "/dev/zero", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/random", "/dev/urandom"]);

/** Characters that end a path token in prose. */
const TOKEN = String.raw`[^\s'"\x60<>()\[\]{},;|*?]*`;
const PATTERNS: RegExp[] = [
  // file:// URLs, whatever follows.
  new RegExp(String.raw`\bfile:\/\/${TOKEN}`, "gi"),
  // /root/…, not inside a longer token (so not a URL path or a relative path); a bare root
  // (`/tmp`) names no machine-specific location and is left alone.
  new RegExp(String.raw`(?<![\w.~:/\\-])\/(?:${POSIX_ROOTS.join("|")})\/[^\s/'"\x60]${TOKEN}`, "g"),
  // C:\… or C:/… (a lone letter, so not the scheme of a URL).
  new RegExp(String.raw`(?<![\w/\\])[A-Za-z]:[\\/]${TOKEN}`, "g"),
  // \\host\share…
  new RegExp(String.raw`(?<![\w\\])\\\\[\w.$-]+\\${TOKEN}`, "g"),
];

/**
 * Every absolute filesystem path in `text`, each once, in order of appearance, with trailing
 * sentence punctuation trimmed (`/home/me/x.ts.` → `/home/me/x.ts`).
 */
export function findAbsolutePaths(text: string): string[] {
  const hits: { at: number; path: string }[] = [];
  for (const pattern of PATTERNS) {
    for (const m of text.matchAll(pattern)) {
      const path = m[0].replace(/[.:!]+$/, "");
      if (DEVICE_FILES.has(path)) continue;
      if (hits.some((h) => m.index >= h.at && m.index < h.at + h.path.length)) continue;
      hits.push({ at: m.index, path });
    }
  }
  hits.sort((a, b) => a.at - b.at);
  return [...new Set(hits.map((h) => h.path))];
}
