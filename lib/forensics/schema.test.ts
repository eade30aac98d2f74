/** Tests of the forensic tools' input schemas (reconstruct_session flags). */
import { describe, expect, it } from "vitest";

import { reconstructSessionInputSchema } from "@/lib/forensics/schema";

const base = { project_key: "p", session_ref: "S0001" };

describe("reconstruct_session flags", () => {
  it("reads JSON booleans and the strings a query string carries, \"false\" as false", () => {
    expect(reconstructSessionInputSchema.parse({ ...base, include_prompts: "false", include_tool_payloads: "0" })).toMatchObject({ include_prompts: false, include_tool_payloads: false });
    expect(reconstructSessionInputSchema.parse({ ...base, include_prompts: "true", include_tool_payloads: true })).toMatchObject({ include_prompts: true, include_tool_payloads: true });
    expect(reconstructSessionInputSchema.parse(base)).toMatchObject({ include_prompts: false, include_tool_payloads: true });
  });

  it("refuses anything else, naming the field", () => {
    const result = reconstructSessionInputSchema.safeParse({ ...base, include_prompts: "maybe" });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(["include_prompts"]);
  });
});
