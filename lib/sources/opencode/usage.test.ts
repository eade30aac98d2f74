import { describe, expect, it } from "vitest";
import { freshInput, messageUsage, type OpenCodeTokens, storesFreshInput } from "@/lib/sources/opencode/usage";

const tokens = (input: number, cacheRead: number, cacheWrite = 0): OpenCodeTokens => ({ input, output: 10, reasoning: 0, cacheRead, cacheWrite });

describe("storesFreshInput", () => {
  it("is false before 1.0.62 and true from it on", () => {
    expect(storesFreshInput("0.15.0")).toBe(false);
    expect(storesFreshInput("1.0.61")).toBe(false);
    expect(storesFreshInput("1.0.62")).toBe(true);
    expect(storesFreshInput("1.1.0")).toBe(true);
    expect(storesFreshInput("1.2.10")).toBe(true);
  });
  it("takes an unreadable version or a dev build as current", () => {
    expect(storesFreshInput(null)).toBe(true);
    expect(storesFreshInput("local")).toBe(true);
    expect(storesFreshInput("0.0.0-dev-202601010000")).toBe(true);
  });
});

describe("freshInput", () => {
  it("subtracts cache reads for an OpenAI-style provider written before 1.0.62 (the corpus: github-copilot, 0.15.0)", () => {
    expect(freshInput(tokens(11405, 11067), "github-copilot", "0.15.0")).toBe(338);
    expect(freshInput(tokens(5000, 4000), "openai", "0.9.0")).toBe(1000);
    expect(freshInput(tokens(5000, 4000), "openrouter", "1.0.50")).toBe(1000);
  });
  it("keeps input as recorded for Anthropic and Bedrock in every version", () => {
    expect(freshInput(tokens(30, 4500, 200), "anthropic", "0.9.0")).toBe(30);
    expect(freshInput(tokens(30, 4500), "amazon-bedrock", "0.15.0")).toBe(30);
    expect(freshInput(tokens(30, 4500), "google-vertex-anthropic", "1.2.0")).toBe(30);
  });
  it("keeps input as recorded from 1.0.62 on, whatever the provider", () => {
    expect(freshInput(tokens(200, 1000), "openai", "1.2.10")).toBe(200);
    expect(freshInput(tokens(900, 300), "openrouter", "1.0.62")).toBe(900);
  });
  it("keeps an old record's input when the cache read exceeds it (it cannot include it)", () => {
    expect(freshInput(tokens(100, 4000), "openai", "0.15.0")).toBe(100);
  });
  it("never goes below zero (newer versions can store a negative input)", () => {
    expect(freshInput(tokens(-423, 84160), "nano-gpt", "1.2.15")).toBe(0);
  });
});

describe("messageUsage", () => {
  const message = { role: "assistant", providerID: "openai", modelID: "gpt-5", cost: 0.5, tokens: { input: 50, output: 5, reasoning: 2, cache: { read: 800, write: 0 } } };

  it("reads the message's tokens and cost", () => {
    expect(messageUsage(message, [], "1.2.10")).toEqual({
      model: "gpt-5",
      input: 50,
      output: 5,
      cacheRead: 800,
      cacheWrite: 0,
      reasoning: 2,
      costUsd: 0.5,
      approximate: false,
    });
  });
  it("sums the steps of a message that ran several (its own tokens are the last step's only)", () => {
    const steps = [tokens(1000, 0), { input: 50, output: 5, reasoning: 2, cacheRead: 800, cacheWrite: 0 }];
    expect(messageUsage(message, steps, "1.2.10")).toMatchObject({ input: 1050, output: 15, reasoning: 2, cacheRead: 800, costUsd: 0.5 });
  });
  it("gives nothing for a message without tokens or with only zeros and no cost", () => {
    expect(messageUsage({ role: "assistant" }, [], "1.2.10")).toBeNull();
    expect(messageUsage({ role: "assistant", cost: 0, tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } } }, [], "1.2.10")).toBeNull();
  });
});
