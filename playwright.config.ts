import { existsSync } from "node:fs";

import { defineConfig, devices } from "@playwright/test";

import { WORKSPACE_DIR } from "./e2e/paths";

// CASEFILE_E2E_PORT lets two checkouts run their suites side by side.
const PORT = Number(process.env.CASEFILE_E2E_PORT ?? 3100);
const BASE_URL = `http://127.0.0.1:${PORT}`;

export default defineConfig({
  testDir: "e2e",
  globalSetup: "./e2e/global-setup.ts",
  workers: 1, // 2-core machines: one browser, one Next server
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    ...devices["Desktop Chrome"],
    baseURL: BASE_URL,
    trace: "retain-on-failure",
    launchOptions: {
      // Debian's Chromium when present, so a Playwright without its own browser download still works.
      executablePath: process.env.PLAYWRIGHT_CHROMIUM_PATH ?? (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined),
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
  },
  projects: [{ name: "chromium" }],
  webServer: {
    command: `npx next start -H 127.0.0.1 -p ${PORT}`,
    url: BASE_URL,
    // webServer starts before globalSetup, so "/" cannot answer 2xx until the workspace is
    // prepared; readiness is taken from Next's "Ready" line instead (the url check races it).
    wait: { stdout: /Ready in/ },
    env: { CASEFILE_WORKSPACE: WORKSPACE_DIR },
    reuseExistingServer: !process.env.CI,
    timeout: 180_000,
  },
});
