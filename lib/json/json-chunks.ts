/** Characters a chunk of {@link jsonChunks} reaches before it is handed out (~64 KB of ASCII). */
const CHUNK_CHARS = 64 << 10;
/**
 * Members at most of a container stringified by one `JSON.stringify` call when none of them is
 * an object (a token point, a read): its text is small, and walking it costs more than the native call.
 */
const SHALLOW_MAX = 64;

/**
 * The text of `JSON.stringify(value)` (no replacer, no indent) in pieces of about 64 Ki
 * characters each, made one after the other: a writer that consumes them in turn never holds the
 * whole text, nor its bytes.
 * Arrays and plain objects are walked, except small ones whose members are all primitives
 * (stringified whole, as is any other value and any object with `toJSON`), so the joined pieces
 * equal `JSON.stringify(value)` exactly. `value` must not be `undefined`, a function or a symbol
 * at the top (JSON.stringify returns undefined for those).
 * @throws TypeError as JSON.stringify does (cycles, BigInt).
 */
export function* jsonChunks(value: unknown, chunkChars: number = CHUNK_CHARS): Generator<string> {
  let buffer = "";
  const open = new Set<object>(); // the objects being walked, to refuse a cycle as JSON.stringify does
  function* walk(v: object): Generator<string> {
    if (open.has(v)) throw new TypeError("Converting circular structure to JSON");
    open.add(v);
    if (Array.isArray(v)) {
      buffer += "[";
      for (let i = 0; i < v.length; i++) {
        if (i > 0) buffer += ",";
        const item: unknown = v[i];
        if (isWalkable(item) && !isShallow(item)) yield* walk(item);
        else buffer += JSON.stringify(item) ?? "null"; // undefined, functions and symbols → null in arrays
        if (buffer.length >= chunkChars) {
          yield buffer;
          buffer = "";
        }
      }
      buffer += "]";
    } else {
      buffer += "{";
      let first = true;
      for (const key of Object.keys(v)) {
        const item: unknown = (v as Record<string, unknown>)[key];
        const walkable = isWalkable(item) && !isShallow(item);
        const text = walkable ? "" : JSON.stringify(item);
        if (text === undefined) continue; // undefined, functions and symbols: the key is left out
        buffer += `${first ? "" : ","}${JSON.stringify(key)}:`;
        first = false;
        if (walkable) yield* walk(item);
        else buffer += text;
        if (buffer.length >= chunkChars) {
          yield buffer;
          buffer = "";
        }
      }
      buffer += "}";
    }
    open.delete(v);
  }
  if (isWalkable(value)) yield* walk(value);
  else buffer = JSON.stringify(value);
  if (buffer) yield buffer;
}

/** A walkable container of at most {@link SHALLOW_MAX} members, none of them an object: JSON.stringify gives its text at once. */
function isShallow(v: object): boolean {
  let members = 0;
  if (Array.isArray(v)) {
    if (v.length > SHALLOW_MAX) return false;
    for (let i = 0; i < v.length; i++) if (typeof v[i] === "object" && v[i] !== null) return false;
    return true;
  }
  for (const key in v) {
    if (!Object.hasOwn(v, key)) continue;
    const member: unknown = (v as Record<string, unknown>)[key];
    if ((typeof member === "object" && member !== null) || ++members > SHALLOW_MAX) return false;
  }
  return true;
}

/** An array, or an object JSON.stringify walks key by key (plain prototype, no `toJSON`). */
function isWalkable(v: unknown): v is object {
  if (typeof v !== "object" || v === null || typeof (v as { toJSON?: unknown }).toJSON === "function") return false;
  if (Array.isArray(v)) return true;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
