"use client";

import { useMemo, useState } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import rehypeHighlight from "rehype-highlight";
import rehypeSanitize from "rehype-sanitize";
import remarkGfm from "remark-gfm";

import { splitControls } from "@/lib/format/display-text";

import { CONTROL_TOKEN_CLASS } from "./ansi-text";
import { MAX_RENDER_CHARS } from "./clamped-text";
import { hasMatch, splitMatches } from "./search-highlight";

/**
 * Long words, links and code lines wrap (issue 35 item 10): no element wider than the row, so the
 * virtualized viewer measures each row at its real height; tables wrap their cells the same way.
 */
const WRAP = "wrap-anywhere [&_pre]:whitespace-pre-wrap";

/** Characters or lines past which a message starts collapsed. */
const PREVIEW_CHARS = 1200;
const PREVIEW_LINES = 12;

type HastNode = { type: string; value?: string; tagName?: string; properties?: Record<string, unknown>; children?: HastNode[] };

type MdastNode = { type: string; value?: string; children?: MdastNode[] };

/** A remark step that keeps raw HTML as the text it is (a transcript's `<script>` is read, never rendered). */
function remarkHtmlAsText() {
  return (tree: MdastNode) => {
    const walk = (node: MdastNode) => {
      for (const child of node.children ?? []) {
        if (child.type === "html") child.type = "text";
        else walk(child);
      }
    };
    walk(tree);
  };
}

/** A rehype step that wraps search matches in `<mark>` (after sanitizing, so the marks stay). */
function rehypeMarks(regex: RegExp | null) {
  return () => (tree: HastNode) => {
    if (!regex) return;
    const walk = (node: HastNode) => {
      if (!node.children) return;
      node.children = node.children.flatMap((child): HastNode[] => {
        if (child.type === "text" && child.value && hasMatch(regex, child.value)) {
          return splitMatches(child.value, regex).map((piece) =>
            piece.match ? { type: "element", tagName: "mark", properties: {}, children: [{ type: "text", value: piece.text }] } : { type: "text", value: piece.text },
          );
        }
        walk(child);
        return [child];
      });
    };
    walk(tree);
  };
}

/**
 * A rehype step that shows control and bidi characters as visible tokens, like the rest of the
 * viewer ({@link splitControls}; issue 35 item 10): a U+202E in a message never reorders it.
 */
function rehypeControls() {
  return (tree: HastNode) => {
    const walk = (node: HastNode) => {
      if (!node.children) return;
      node.children = node.children.flatMap((child): HastNode[] => {
        if (child.type !== "text" || !child.value) {
          walk(child);
          return [child];
        }
        const pieces = splitControls(child.value);
        if (pieces.length === 1 && !pieces[0]!.control) return [child];
        return pieces.map((piece) =>
          piece.control
            ? { type: "element", tagName: "span", properties: { dataControl: "", title: piece.control, className: CONTROL_TOKEN_CLASS.split(" ") }, children: [{ type: "text", value: piece.text }] }
            : { type: "text", value: piece.text },
        );
      });
    };
    walk(tree);
  };
}

const REMARK_PLUGINS = [remarkGfm, remarkHtmlAsText];

// Links open outside the dashboard; images are not fetched (a transcript's URLs are the agent's, not
// ours); a message's headings sit below the page's own (h1 is the session's).
const COMPONENTS: Components = {
  h1: ({ children }) => <h3>{children}</h3>,
  h2: ({ children }) => <h4>{children}</h4>,
  h3: ({ children }) => <h5>{children}</h5>,
  h4: ({ children }) => <h6>{children}</h6>,
  h5: ({ children }) => <h6>{children}</h6>,
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noreferrer noopener" className="text-accent underline">
      {children}
    </a>
  ),
  img: ({ alt }) => <span className="text-muted">[image{alt ? `: ${alt}` : ""}]</span>,
};

/**
 * A user or agent message rendered as Markdown (GitHub flavour): sanitized (raw HTML in the
 * text shows as text, never as markup), code blocks highlighted, search matches marked. Long
 * messages start collapsed; one holding a search match opens by itself (issue 29).
 */
export function MarkdownText({ text, highlight = null }: { text: string; highlight?: RegExp | null }) {
  const [toggled, setToggled] = useState<boolean | null>(null);
  const isLong = text.length > PREVIEW_CHARS || text.slice(0, PREVIEW_CHARS).split("\n", PREVIEW_LINES + 1).length > PREVIEW_LINES;
  const expanded = toggled ?? (isLong && hasMatch(highlight, text.slice(0, MAX_RENDER_CHARS)));
  const shown = text.length > MAX_RENDER_CHARS ? text.slice(0, MAX_RENDER_CHARS) : text;
  const rehypePlugins = useMemo(() => [rehypeSanitize, [rehypeHighlight, { detect: false, ignoreMissing: true }], rehypeMarks(highlight), rehypeControls] as never, [highlight]);
  return (
    <div>
      <div data-testid="markdown" className={`markdown font-sans text-[0.8125rem] leading-5 ${WRAP} ${isLong && !expanded ? "max-h-56 overflow-hidden [mask-image:linear-gradient(to_bottom,black_75%,transparent)]" : ""}`}>
        <ReactMarkdown remarkPlugins={REMARK_PLUGINS} rehypePlugins={rehypePlugins} components={COMPONENTS}>
          {shown}
        </ReactMarkdown>
      </div>
      {isLong && (
        <button type="button" aria-expanded={expanded} onClick={() => setToggled(!expanded)} className="mt-0.5 font-sans text-2xs font-medium text-accent hover:underline">
          {expanded ? "Show less" : "Show more"}
        </button>
      )}
    </div>
  );
}
