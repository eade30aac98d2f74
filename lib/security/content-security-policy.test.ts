import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { inlineScriptHashes, pageContentSecurityPolicy, prerenderedScriptHashes } from "@/lib/security/content-security-policy";
import { refusedRequestRecord } from "@/lib/security/request-limits";
import { makeTempDir } from "@/lib/testing/shared";

const sha = (text: string) => `sha256-${createHash("sha256").update(text).digest("base64")}`;

describe("pageContentSecurityPolicy", () => {
  it("allows this origin's scripts, the nonce's and the hashed ones; eval only under next dev; no framing", () => {
    const policy = pageContentSecurityPolicy({ nonce: "abc", scriptHashes: ["sha256-x"] });
    expect(policy).toContain("script-src 'self' 'nonce-abc' 'sha256-x';");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain("unsafe-eval");
    expect(pageContentSecurityPolicy({ nonce: "abc", dev: true })).toContain("script-src 'self' 'nonce-abc' 'unsafe-eval';");
  });
});

describe("inlineScriptHashes and prerenderedScriptHashes", () => {
  it("hash the text of each inline script (not those with src, not empty ones) of the prerendered pages", async () => {
    const html = `<script src="/_next/static/a.js" async=""></script><script>self.__next_f.push([0])</script><script id="x">a<b</script><script></script><script>self.__next_f.push([0])</script>`;
    expect(inlineScriptHashes(html)).toEqual([sha("self.__next_f.push([0])"), sha("a<b")]);
    const dir = await makeTempDir("casefile-csp-");
    await fs.mkdir(path.join(dir, "nested"));
    await fs.writeFile(path.join(dir, "_not-found.html"), html);
    await fs.writeFile(path.join(dir, "nested", "page.html"), "<script>one()</script>");
    await fs.writeFile(path.join(dir, "page.rsc"), "<script>not html()</script>");
    expect(prerenderedScriptHashes(dir)).toEqual([sha("self.__next_f.push([0])"), sha("a<b"), sha("one()")]);
    expect(prerenderedScriptHashes(path.join(dir, "missing"))).toEqual([]);
  });
});

describe("refusedRequestRecord", () => {
  it("keeps method, path, reason and declared size, each bounded; a size it cannot read is null", () => {
    const record = refusedRequestRecord("POST", `/api/tools/${"x".repeat(1000)}`, "r".repeat(1000), "1000000000000");
    expect(record.refused_request.path.length).toBe(256);
    expect(record.refused_request.reason.length).toBe(256);
    expect(record.refused_request.content_length).toBe(1_000_000_000_000);
    expect(refusedRequestRecord("POST", "/", "no", null).refused_request.content_length).toBeNull();
    expect(refusedRequestRecord("POST", "/", "no", "12, 12").refused_request.content_length).toBeNull();
  });
});
