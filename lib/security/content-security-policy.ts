/**
 * Security headers of every response (issue 35, item 5): a Content-Security-Policy that lets only
 * Next.js's own scripts run and forbids framing, nosniff and no-referrer.
 *
 * next.config.mjs repeats {@link SECURITY_HEADERS} and {@link STRICT_CONTENT_SECURITY_POLICY}
 * (it is loaded as plain JavaScript and cannot import this module); a test holds them equal.
 */
import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** The headers every response carries besides its Content-Security-Policy. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  // For browsers without CSP's frame-ancestors; both forbid any framing of the dashboard.
  "x-frame-options": "DENY",
};

/**
 * The policy of every response that is not a page (JSON of /api/*, scripts and styles under
 * /_next/static, the server's own refusals): such a document may load nothing and be framed by
 * no one. Pages get {@link pageContentSecurityPolicy} instead (proxy.ts).
 */
export const STRICT_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** A fresh CSP nonce: 16 random bytes, base64 (a page's inline scripts carry it). */
export function createNonce(): string {
  return randomBytes(16).toString("base64");
}

/**
 * A page's Content-Security-Policy. Scripts: this origin's files (Next's chunks, which it also
 * loads at run time), inline scripts carrying `nonce` (Next adds it to each of its own inline
 * scripts when it renders a page: it reads the nonce from this header on the request), and the
 * inline scripts whose hashes are in `scriptHashes` (those of pages prerendered at build time,
 * which carry no nonce; {@link prerenderedScriptHashes}). No other inline script, no `eval`
 * except under `next dev` (`dev`: React's dev tools need it), nothing from another origin.
 * Styles may be inline: React renders `style` attributes (virtualized rows, charts).
 */
export function pageContentSecurityPolicy({ nonce, scriptHashes = [], dev = false }: { nonce: string; scriptHashes?: readonly string[]; dev?: boolean }): string {
  const script = ["'self'", `'nonce-${nonce}'`, ...scriptHashes.map((hash) => `'${hash}'`), ...(dev ? ["'unsafe-eval'"] : [])];
  return [
    "default-src 'self'",
    `script-src ${script.join(" ")}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** An inline `<script>` element (no `src`) and its text. */
const INLINE_SCRIPT = /<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi;

/** The CSP hash source (`sha256-<base64>`) of each non-empty inline script of `html`, in order, without repeats. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    const text = match[1]!;
    if (text.length > 0) hashes.add(`sha256-${createHash("sha256").update(text, "utf8").digest("base64")}`);
  }
  return [...hashes];
}

/**
 * The hashes ({@link inlineScriptHashes}) of the inline scripts of every prerendered HTML page
 * under `dir` (Next's `.next/server/app`: the pages rendered at build time, such as the not-found
 * page, which are served as they are and so carry no nonce). Empty when `dir` cannot be read
 * (`next dev`, no build).
 */
export function prerenderedScriptHashes(dir: string): string[] {
  let files: string[];
  try {
    files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".html"));
  } catch {
    return [];
  }
  const hashes = new Set<string>();
  for (const file of files.sort()) {
    try {
      for (const hash of inlineScriptHashes(readFileSync(path.join(dir, file), "utf8"))) hashes.add(hash);
    } catch {
      /* a page removed since the listing: nothing of it to allow */
    }
  }
  return [...hashes];
}
