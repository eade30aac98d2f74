/**
 * Headers of every response (issue 35, item 5), the same as SECURITY_HEADERS and
 * STRICT_CONTENT_SECURITY_POLICY of lib/security/content-security-policy.ts (this file cannot
 * import TypeScript; server/http/proxy.test.ts holds them equal). Set here rather than in proxy.ts
 * because these reach what the proxy never sees (/_next/static files, the proxy's own answers).
 * Pages replace this policy with theirs (proxy.ts): the proxy's header has the same lowercase
 * name, and Next applies the proxy's headers after these.
 */
const SECURITY_HEADERS = [
  { key: "x-content-type-options", value: "nosniff" },
  { key: "referrer-policy", value: "no-referrer" },
  { key: "x-frame-options", value: "DENY" },
  { key: "content-security-policy", value: "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'" },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  headers: async () => [{ source: "/:path*", headers: SECURITY_HEADERS }],
  // The dashboard reads the workspace with Node APIs; keep these packages out of the bundle.
  serverExternalPackages: ["@secretlint/core", "@secretlint/secretlint-rule-preset-recommend", "chokidar", "esbuild"],
  devIndicators: false,
  poweredByHeader: false,
  // Next preloads every route's modules at start by default; on this 2-core machine that work
  // competed with the first request and made it ~0.2 s slower (0.69–0.77 s to first byte for a
  // session page, 0.52–0.60 s without), while the routes visited next loaded as fast either way
  // (they share the first page's modules). Issue 13: the session page's first rows, cold, ≤ 1 s.
  // proxyClientMaxBodySize: Next cuts a body past it silently (the crossing chunk dropped) before
  // routes see it; well above the tool door's 10 MiB limit, a cut body is still over that limit
  // and answers 413 (server/http/tools.ts, issue 26).
  experimental: { preloadEntriesOnStart: false, proxyClientMaxBodySize: "64mb" },
  // `casefile serve` / `npm start` build without Next's type check (issue 29: first start ≤ 60 s;
  // `npm test` and CI run `tsc --noEmit`, and `next build` alone still checks).
  typescript: { ignoreBuildErrors: process.env.CASEFILE_SKIP_TYPECHECK === "1" },
  // The app runs from this checkout: its server is never deployed from Next's file traces, so
  // "the whole project is traced" (lib/ reads paths known only at run time: workspaces, sources,
  // worker bundles) is ~200 lines a build printed that nobody could act on (issue 36 item 3).
  turbopack: { ignoreIssue: [{ path: /./, title: /Dynamic filesystem access causes tracing of the whole project/ }] },
};

export default nextConfig;
