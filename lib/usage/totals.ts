// Accumulates token totals by kind with their cost (the UsageTotals shape of lib/usage/schema).
import type { UsageTotals } from "@/lib/usage/schema";

/** A mutable accumulator of {@link UsageTotals}. */
export class TotalsBuilder {
  input = 0;
  output = 0;
  cacheWrite = 0;
  cacheWrite1h = 0;
  cacheRead = 0;
  reasoning = 0;
  cost = 0;
  priced = 0;
  requests = 0;
  readonly models = new Set<string>();
  readonly unpriced = new Set<string>();

  /** Adds one bucket's or request's counts; `cost` null means the model has no price. */
  add(model: string, t: { input: number; output: number; cacheWrite: number; cacheWrite1h: number; cacheRead: number; reasoning?: number; requests: number }, cost: number | null): void {
    this.input += t.input;
    this.output += t.output;
    this.cacheWrite += t.cacheWrite;
    this.cacheWrite1h += t.cacheWrite1h;
    this.cacheRead += t.cacheRead;
    this.reasoning += t.reasoning ?? 0;
    this.requests += t.requests;
    this.models.add(model);
    if (cost === null) this.unpriced.add(model);
    else {
      this.cost += cost;
      this.priced += 1;
    }
  }

  /** The totals, models and unpriced models sorted by name. */
  build(): UsageTotals {
    return {
      input_tokens: this.input,
      output_tokens: this.output,
      cache_creation_tokens: this.cacheWrite,
      cache_creation_1h_tokens: this.cacheWrite1h,
      cache_read_tokens: this.cacheRead,
      reasoning_tokens: this.reasoning,
      total_tokens: this.input + this.output + this.reasoning + this.cacheWrite + this.cacheRead,
      // Rounded to 1e-10 USD: sums of the same requests in another order (per bucket, per session) then print the same.
      cost_usd: this.priced > 0 ? Math.round(this.cost * 1e10) / 1e10 : this.unpriced.size > 0 ? null : 0,
      unpriced_models: [...this.unpriced].sort(),
      requests: this.requests,
      models: [...this.models].sort(),
    };
  }
}
