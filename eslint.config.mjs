import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

const restrict = (files, patterns, ignores = []) => ({
  files,
  ignores,
  rules: { "no-restricted-imports": ["error", { patterns }] },
});

const config = [
  { ignores: ["node_modules/**", ".next/**", "e2e/.tmp/**", "bench/.tmp/**", "next-env.d.ts", "test-results/**"] },
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    rules: {
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  restrict(["lib/**"], [
    { group: ["next", "next/*", "react", "react-dom", "server-only"], message: "lib/ is transport-independent." },
    { group: ["@/app/*", "@/components/*", "@/server/*"], message: "lib/ must not import outer layers." },
  ]),
  // Component tests run in Node (happy-dom): they may build their data with lib/ as the server does.
  restrict(["components/**"], [
    { regex: "^@/server/(?!actions/)", message: "UI may import server actions only." },
    // evidence/check-turn: stage C's rule, pure (types only), so the editor flags what the server would refuse.
    // catalog/search-query: the search query parser, pure, so the viewer marks what search_sessions matched (issue 37).
    { regex: "^@/lib/(?!errors$|format/|[\\w-]+/schema$|[\\w-]+/[\\w-]+/schema$|evidence/check-turn$|catalog/search-query$)", message: "UI may import only client-safe lib modules." },
    { group: ["node:*"], message: "No Node built-ins in UI code." },
  ], ["components/**/*.test.tsx"]),
  restrict(["server/**"], [{ group: ["@/components/*", "@/app/*"], message: "Adapters never import UI." }], [
    "server/mcp/**",
    "server/cli/**",
  ]),
  restrict(["server/mcp/**", "server/cli/**"], [
    {
      group: ["next", "next/*", "server-only", "@/server/actions/*", "@/server/http/*", "@/components/*"],
      message: "MCP/CLI run in plain Node.",
    },
  ]),
];

export default config;
