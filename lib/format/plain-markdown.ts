// Markdown marks taken out of a text shown on one line (a Timeline headline), its words kept.

/** A code span: a run of backticks, its content, the same run closing it (CommonMark). */
const CODE_SPAN = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g;

/**
 * `text` with its Markdown marks taken out, for a one-line headline where they would show as
 * typed (`**login**` → `login`): code spans keep their content verbatim (`` `__init__` `` →
 * `__init__`); images and links keep their text; `**`, `__`, `*`, `_` and `~~` pairs around
 * words go (an underscore inside a word, as in `snake_case`, stays); heading, quote and bullet
 * marks at a line's start go. Unpaired marks (a preview cut mid-emphasis) stay as typed. Pure;
 * not a Markdown renderer (the viewer renders Markdown itself).
 */
export function markdownPlainText(text: string): string {
  // Code spans stand aside as private-use placeholders while the marks around them go (bold may hold code).
  const spans: string[] = [];
  const held = text.replace(/[\uE000\uE001]/g, "").replace(CODE_SPAN, (_m, _ticks: string, code: string) => `\uE000${spans.push(code.replace(/^ (.*) $/s, "$1")) - 1}\uE001`);
  return plainProse(held).replace(/\uE000(\d+)\uE001/g, (_m, i: string) => spans[Number(i)]!);
}

function plainProse(text: string): string {
  return text
    .replace(/^[ \t]{0,3}(?:#{1,6}[ \t]+|>[ \t]?|[-*+][ \t]+)/gm, "")
    .replace(/!?\[([^\]\n]*)\]\([^)\n]*\)/g, "$1")
    .replace(/\*\*(?=\S)([\s\S]*?\S)\*\*/g, "$1")
    .replace(/(^|[^\w_])__(?=\S)([\s\S]*?\S)__(?!\w)/g, "$1$2")
    .replace(/(^|[^\w*])\*(?=[^\s*])([^*\n]*?[^\s*])\*(?![\w*])/g, "$1$2")
    .replace(/(^|[^\w_])_(?=[^\s_])([^_\n]*?[^\s_])_(?!\w)/g, "$1$2")
    .replace(/~~(?=\S)([^~\n]*?\S)~~/g, "$1");
}
