/** Tests of isAppError. */
import { describe, expect, it } from "vitest";

import { AppError, isAppError } from "@/lib/errors";

describe("isAppError", () => {
  it("knows an AppError made by another copy of lib/errors (another bundle layer of the server)", () => {
    class ForeignAppError extends Error {
      override readonly name = "AppError";
      constructor(readonly code: string) {
        super("from another copy");
      }
    }
    expect(isAppError(new AppError("not_found", "x"))).toBe(true);
    expect(isAppError(new ForeignAppError("not_found"))).toBe(true);
    expect(isAppError(new ForeignAppError("no_such_code"))).toBe(false);
    expect(isAppError(Object.assign(new Error("plain"), { code: "not_found" }))).toBe(false);
    expect(isAppError({ name: "AppError", code: "not_found", message: "not an Error" })).toBe(false);
  });
});
