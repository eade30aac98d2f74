/** The skim's field plans: what to build of a line's values, and the registry of planned members the scanner's tape names. */
import { grown } from "@/lib/columns/typed-columns";

/** Plan: skip the value (its grammar checked, nothing built). */
export const SKIP = 0;
/** Plan: build the value as JSON.parse would. */
export const FULL = 1;
/** Plan: build the value, cutting long strings at any depth (see lib/sources/common/skim). */
export const TEXT = 2;
/** Plan of a top-level `timestamp`: parsed to epoch ms (`SkimmedRecord.timestampMs`), left out of the record. */
export const STAMP = 3;
/** What to build of a value: {@link FULL}, {@link TEXT}, {@link STAMP}, an object plan or an array plan. */
export type Plan = number | ObjectPlan | ArrayPlan;
/** One planned member: its key's UTF-8 bytes and text, its plan, and the id the scanner's tape names it with. */
export type Field = { bytes: Uint8Array; name: string; plan: Plan; id: number };
/**
 * An object plan (made by {@link objectPlan}): the keys to build and how, by raw byte length;
 * every other key is skipped. `lengths` has bit `n` set for each planned key `n` bytes long, or
 * is null when one is 32 bytes or longer (the scanner's member walk then is not used). `shared`
 * (see {@link objectPlan}).
 */
export type ObjectPlan = { keys: (Field[] | undefined)[]; lengths: number | null; shared: boolean };
/** An array plan: `items` for each item of an array, `orElse` for a value that is not an array. */
export type ArrayPlan = { items: Plan; orElse: Plan };

/**
 * Every planned member of this thread's plans: `fields` by id, and `stamps[id]` 1 for the members
 * planned as {@link STAMP} (read for every tape entry of a shared line, so a byte table).
 */
export const plannedFields: { fields: Field[]; stamps: Uint8Array } = { fields: [], stamps: new Uint8Array(64) };

/**
 * The object plan building `fields` (name → plan) and skipping every other key. With `shared`
 * (a line's own plan, whose records are read only and repeat: Codex's envelope), a line whose
 * built fields are all short plain strings gets the same frozen record as every earlier line
 * with the same fields and values, rather than a new one (see lib/sources/common/skim-tape).
 */
export function objectPlan(fields: Record<string, Plan>, options: { shared?: boolean } = {}): ObjectPlan {
  const keys: (Field[] | undefined)[] = [];
  let lengths: number | null = 0;
  for (const [name, plan] of Object.entries(fields)) {
    const bytes = new Uint8Array(Buffer.from(name, "utf8"));
    const field = { bytes, name, plan, id: plannedFields.fields.length };
    plannedFields.fields.push(field);
    if (plan === STAMP) {
      if (field.id >= plannedFields.stamps.length) plannedFields.stamps = grown(plannedFields.stamps, field.id * 2);
      plannedFields.stamps[field.id] = 1;
    }
    (keys[bytes.length] ??= []).push(field);
    lengths = lengths === null || bytes.length >= 32 ? null : lengths | (1 << bytes.length);
  }
  return { keys, lengths, shared: options.shared === true };
}
