/**
 * Runs in the browser before the dashboard hydrates (Next's client instrumentation file). A
 * page's Content-Security-Policy allows no eval (lib/security/content-security-policy), so zod
 * can never compile its parsers with `new Function`: `jitless` says so up front, where zod would
 * otherwise probe with a `Function("")` that, caught or not, the browser reports as a CSP
 * violation on every page whose forms parse input (issue 35, item 5).
 */
import { config } from "zod/v4/core";

config({ jitless: true });
