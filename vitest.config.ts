import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL("./", import.meta.url)),
      // server-only throws outside the react-server condition; Vitest runs plain Node.
      "server-only": fileURLToPath(new URL("./lib/testing/server-only-stub.ts", import.meta.url)),
    },
  },
  test: {
    // Component tests are components/**/*.test.tsx, each with `// @vitest-environment happy-dom`.
    include: ["lib/**/*.test.ts", "server/**/*.test.ts", "bench/**/*.test.ts", "components/**/*.test.ts", "components/**/*.test.tsx"],
    environment: "node",
    // Temp workspaces live in one folder per run, removed at its end (lib/testing/global-setup.ts).
    globalSetup: ["lib/testing/global-setup.ts"],
    // Searches check every candidate line (the server's default stops after 24 MiB of them).
    env: { CASEFILE_SEARCH_CHECK_BYTES: String(2 ** 40) },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
