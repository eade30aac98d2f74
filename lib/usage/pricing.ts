// Model prices (USD per token): the bundled LiteLLM snapshot ccusage uses offline, plus a workspace override file.
import fs from "node:fs/promises";

import * as z from "zod";

import { AppError } from "@/lib/errors";

import snapshot from "./pricing-snapshot.json";

/**
 * One model's prices in USD per token. `cacheWrite1h` is the 1-hour cache-write price when the
 * source names one (LiteLLM's compact snapshot does not: 1h writes then cost the cache-write
 * price, as ccusage counts them). `above` holds the tiered prices that apply to the part of one
 * request's count of a kind above {@link PricingTable.tierThreshold} tokens.
 */
export type ModelPrice = {
  input: number;
  output: number;
  cacheWrite: number | null;
  cacheWrite1h: number | null;
  cacheRead: number | null;
  above: { input: number | null; output: number | null; cacheWrite: number | null; cacheRead: number | null };
};

/** The prices Casefile counts with, and where they came from. */
export type PricingTable = {
  source: string;
  snapshotDate: string;
  tierThreshold: number;
  /** Workspace-relative override file, when one was read. */
  override: string | null;
  models: Map<string, ModelPrice>;
};

const compactSchema = z.object({
  i: z.number().optional(),
  o: z.number().optional(),
  cc: z.number().optional(),
  cc1h: z.number().optional(),
  cr: z.number().optional(),
  ia: z.number().optional(),
  oa: z.number().optional(),
  cca: z.number().optional(),
  cra: z.number().optional(),
});

/**
 * The override file's shape (`<workspace>/.casefile-config/pricing.json`): per model, USD per million
 * tokens (how vendors publish them), any subset of the kinds; a model not in the snapshot needs
 * at least input and output.
 */
export const pricingOverrideSchema = z.object({
  models: z.record(
    z.string().min(1),
    z.object({
      input_per_mtok: z.number().nonnegative().optional(),
      output_per_mtok: z.number().nonnegative().optional(),
      cache_write_per_mtok: z.number().nonnegative().optional(),
      cache_write_1h_per_mtok: z.number().nonnegative().optional(),
      cache_read_per_mtok: z.number().nonnegative().optional(),
    }).strict(),
  ),
}).strict();

/**
 * Anthropic prices a 1-hour cache write at twice the input price (a 5-minute one at 1.25×); the
 * snapshot names no 1-hour price, so a model with a cache-write price gets `2 × input` (what
 * ccusage 20.0.24 charges; docs.anthropic.com "Prompt caching" pricing).
 */
const ONE_HOUR_WRITE_FACTOR = 2;

function fromCompact(c: z.infer<typeof compactSchema>): ModelPrice | null {
  if (c.i === undefined || c.o === undefined) return null;
  const oneHour = c.cc1h ?? (c.cc === undefined ? null : c.i * ONE_HOUR_WRITE_FACTOR);
  return { input: c.i, output: c.o, cacheWrite: c.cc ?? null, cacheWrite1h: oneHour, cacheRead: c.cr ?? null, above: { input: c.ia ?? null, output: c.oa ?? null, cacheWrite: c.cca ?? null, cacheRead: c.cra ?? null } };
}

/** The bundled snapshot alone (no override), parsed once. */
export function bundledPricing(): PricingTable {
  const models = new Map<string, ModelPrice>();
  for (const [name, raw] of Object.entries(snapshot.models)) {
    const parsed = compactSchema.safeParse(raw);
    const price = parsed.success ? fromCompact(parsed.data) : null;
    if (price) models.set(name, price);
  }
  return { source: snapshot.source, snapshotDate: snapshot.snapshot_date, tierThreshold: snapshot.tier_threshold_tokens, override: null, models };
}

let bundled: PricingTable | null = null;

/**
 * The prices for a workspace: the bundled snapshot with the override file's models laid over it
 * (per kind; per-million prices divided by 10^6). No file: the snapshot alone. `file` is the
 * workspace's override path (lib/workspace/sources `pricingOverrideFile`), `rel` how errors name it.
 * @throws AppError parse_error naming the file and field when the override file is not valid.
 */
export async function loadPricing(file: string, rel = ".casefile-config/pricing.json"): Promise<PricingTable> {
  bundled ??= bundledPricing();
  let raw: string;
  try {
    raw = await fs.readFile(file, "utf8");
  } catch {
    return bundled;
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new AppError("parse_error", `${rel} is not JSON`, { path: rel, hint: 'write {"models": {"<model>": {"input_per_mtok": 3, "output_per_mtok": 15}}}' });
  }
  const parsed = pricingOverrideSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new AppError("parse_error", `${rel}: ${issue.path.join(".") || "file"}: ${issue.message}`, { path: rel, hint: "prices are USD per million tokens: input_per_mtok, output_per_mtok, cache_write_per_mtok, cache_write_1h_per_mtok, cache_read_per_mtok" });
  }
  const models = new Map(bundled.models);
  const m = (x: number | undefined) => (x === undefined ? undefined : x / 1e6);
  for (const [name, o] of Object.entries(parsed.data.models)) {
    const base = models.get(name);
    const input = m(o.input_per_mtok) ?? base?.input;
    const output = m(o.output_per_mtok) ?? base?.output;
    if (input === undefined || output === undefined) {
      throw new AppError("parse_error", `${rel}: models.${name}: a model the bundled prices do not know needs input_per_mtok and output_per_mtok`, { path: rel, hint: "add both prices" });
    }
    models.set(name, {
      input,
      output,
      cacheWrite: m(o.cache_write_per_mtok) ?? base?.cacheWrite ?? null,
      cacheWrite1h: m(o.cache_write_1h_per_mtok) ?? base?.cacheWrite1h ?? null,
      cacheRead: m(o.cache_read_per_mtok) ?? base?.cacheRead ?? null,
      // An overridden kind drops the source's tier for it (the user's price is the whole price).
      above: {
        input: o.input_per_mtok === undefined ? (base?.above.input ?? null) : null,
        output: o.output_per_mtok === undefined ? (base?.above.output ?? null) : null,
        cacheWrite: o.cache_write_per_mtok === undefined ? (base?.above.cacheWrite ?? null) : null,
        cacheRead: o.cache_read_per_mtok === undefined ? (base?.above.cacheRead ?? null) : null,
      },
    });
  }
  return { ...bundled, override: rel, models };
}

const DATE_SUFFIX = /-(\d{4}-\d{2}-\d{2}|\d{8})$/;

/**
 * The table entry for a model name as a transcript writes it: exact, then without a provider
 * prefix (`anthropic/`, `openai/`), then without a date suffix (`-20251101`, `-2025-11-13`), then
 * with a hyphenated version dotted (`gpt-5-1-codex` → `gpt-5.1-codex`). Null: unknown model
 * (its cost is unknown, never 0).
 */
export function priceOf(table: PricingTable, model: string): ModelPrice | null {
  const tries = [model];
  const bare = model.replace(/^[a-z]+\//, "");
  tries.push(bare);
  const undated = bare.replace(DATE_SUFFIX, "");
  tries.push(undated);
  tries.push(undated.replace(/^(gpt-\d+)-(\d+)(?=-|$)/, "$1.$2"));
  for (const name of tries) {
    const hit = table.models.get(name);
    if (hit) return hit;
  }
  return null;
}

/** Token counts of one model request, by kind (tokens). `cacheWrite1h` is part of `cacheWrite`. */
export type RequestTokens = { input: number; output: number; cacheWrite: number; cacheWrite1h: number; cacheRead: number };

/**
 * The cost in USD of one request: each kind times its price; where the source has tiered prices,
 * the part of that kind's count above the threshold at the tiered price (ccusage's rule). A cache
 * kind the source prices not at all costs 0, as ccusage counts it (such models have no cache).
 * 1-hour cache writes cost `cacheWrite1h` when the table has it, else the cache-write price.
 */
export function requestCost(price: ModelPrice, t: RequestTokens, threshold: number): number {
  const tiered = (count: number, base: number | null, above: number | null): number => {
    if (count <= 0 || base === null) return 0;
    if (above === null || count <= threshold) return count * base;
    return threshold * base + (count - threshold) * above;
  };
  const writes = price.cacheWrite1h === null
    ? tiered(t.cacheWrite, price.cacheWrite, price.above.cacheWrite)
    : tiered(t.cacheWrite - t.cacheWrite1h, price.cacheWrite, price.above.cacheWrite) + t.cacheWrite1h * price.cacheWrite1h;
  return tiered(t.input, price.input, price.above.input) + tiered(t.output, price.output, price.above.output) + writes + tiered(t.cacheRead, price.cacheRead, price.above.cacheRead);
}
