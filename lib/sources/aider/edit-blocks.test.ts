import { describe, expect, it } from "vitest";

import { newEditScan, scanEditLine, type FoundEdit } from "@/lib/sources/aider/edit-blocks";

/** The edits found in a reply, with their 1-based line. */
function editsOf(reply: string[]): { line: number; edit: FoundEdit }[] {
  const scan = newEditScan();
  const found: { line: number; edit: FoundEdit }[] = [];
  reply.forEach((_, i) => {
    const edit = scanEditLine(reply, i, scan);
    if (edit !== null) found.push({ line: i + 1, edit });
  });
  return found;
}

describe("scanEditLine", () => {
  it("finds a SEARCH/REPLACE block's file above its fence, once per block", () => {
    expect(editsOf(["src/a.py", "```python", "<<<<<<< SEARCH", "x", "=======", "y", ">>>>>>> REPLACE", "```"])).toEqual([
      { line: 3, edit: { path: "src/a.py", kind: "search/replace" } },
    ]);
  });

  it("reads the file from a fence info string, a file line inside the fence, or a decorated name", () => {
    expect(editsOf(["```src/b.ts", "<<<<<<< SEARCH", "=======", ">>>>>>> REPLACE", "```"])[0]!.edit.path).toBe("src/b.ts");
    expect(editsOf(["```", "src/c.ts", "<<<<<<< SEARCH", "=======", ">>>>>>> REPLACE", "```"])[0]!.edit.path).toBe("src/c.ts");
    expect(editsOf(["**`src/d.ts`**:", "<<<<<<< SEARCH", "=======", ">>>>>>> REPLACE"])[0]!.edit.path).toBe("src/d.ts");
  });

  it("falls back to the reply's previous block file, else names no file", () => {
    const reply = ["Change it:", "<<<<<<< SEARCH", "=======", ">>>>>>> REPLACE", "lib/x.go", "<<<<<<< SEARCH", "=======", ">>>>>>> REPLACE", "", "<<<<<<< SEARCH", "=======", ">>>>>>> REPLACE"];
    expect(editsOf(reply).map((e) => e.edit.path)).toEqual([null, "lib/x.go", "lib/x.go"]);
  });

  it("takes a fence after a file name for a whole file, but not prose or code inside a block", () => {
    expect(editsOf(["Here is the code:", "```python", "print(1)", "```"])).toEqual([]);
    expect(editsOf(["Done.", "```", "x", "```"])).toEqual([]);
    expect(editsOf(["docs/guide.md", "````markdown", "```sh", "npm test", "```", "````"])).toEqual([
      { line: 2, edit: { path: "docs/guide.md", kind: "whole file" } },
    ]);
    // Fences inside a SEARCH/REPLACE block are the file's content.
    expect(editsOf(["README.md", "<<<<<<< SEARCH", "```", "old", "```", "=======", "new", ">>>>>>> REPLACE"]).length).toBe(1);
  });

  it("finds a unified diff's file on its +++ line and a patch's on its File line", () => {
    expect(editsOf(["```diff", "--- a/src/tax.py", "+++ b/src/tax.py", "@@ -1 +1 @@", "```"])).toEqual([{ line: 3, edit: { path: "src/tax.py", kind: "diff" } }]);
    expect(editsOf(["```diff", "--- /dev/null", "+++ new.txt", "```"])).toEqual([{ line: 3, edit: { path: "new.txt", kind: "diff" } }]);
    expect(editsOf(["+++ outside.txt"])).toEqual([]);
    expect(editsOf(["*** Begin Patch", "*** Add File: a/b.ts", "*** Delete File: c.ts", "*** End Patch"]).map((e) => e.edit.path)).toEqual(["a/b.ts", "c.ts"]);
  });
});
