/** Work-item free text checked for secrets and absolute paths. */
import { findAbsolutePaths } from "@/lib/synthesis/absolute-paths";
import type { SynthesisError } from "@/lib/synthesis/schema";
import { findSecretKinds } from "@/lib/synthesis/secret-scan";

type Obj = Record<string, unknown>;
const asObj = (v: unknown): Obj => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : {});
const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/**
 * Every free-text field of a raw work item as `[path, text]`, in canonical field order:
 * title, trigger.summary, agent_reaction.summary and main_actions[i], outcomes[i].summary,
 * terminal_states[i].summary, limits[i], reason. Non-string values are skipped (stage A
 * reports them); unknown keys are not text of the item (they are dropped when it is written).
 */
export function freeTextFields(raw: unknown): [path: string, text: string][] {
  const root = asObj(raw);
  const out: [string, string][] = [];
  const add = (path: string, value: unknown) => {
    if (typeof value === "string") out.push([path, value]);
  };
  add("work_item.title", root.title);
  add("work_item.trigger.summary", asObj(root.trigger).summary);
  const reaction = asObj(root.agent_reaction);
  add("work_item.agent_reaction.summary", reaction.summary);
  asList(reaction.main_actions).forEach((v, i) => add(`work_item.agent_reaction.main_actions[${i}]`, v));
  asList(root.outcomes).forEach((o, i) => add(`work_item.outcomes[${i}].summary`, asObj(o).summary));
  asList(root.terminal_states).forEach((s, i) => add(`work_item.terminal_states[${i}].summary`, asObj(s).summary));
  asList(root.limits).forEach((v, i) => add(`work_item.limits[${i}]`, v));
  add("work_item.reason", root.reason);
  return out;
}

/** The rejection of a field holding a secret. */
export const secretError = (path: string, kind: string): SynthesisError => ({
  path,
  message: `${path} contains what looks like ${kind}`,
  hint: "remove the secret; describe it without its value",
});

/** The rejection of a field holding an absolute filesystem path. */
export const absolutePathError = (path: string, found: string): SynthesisError => ({
  path,
  message: `${path} contains an absolute path '${found}'`,
  hint: "use a project-relative path (for example src/app.ts), or describe the location without the absolute path",
});

/**
 * Casefile's content rule (seed 001 "the work item contains no secrets, credentials, or
 * unnecessary absolute paths"; issue 4): per free-text field, in field order, first each kind
 * of secret secretlint finds (see secret-scan.ts), then each absolute filesystem path (see
 * absolute-paths.ts). Messages name the kind of secret, never its value.
 */
export async function checkWorkItemContent(raw: unknown): Promise<SynthesisError[]> {
  const fields = freeTextFields(raw);
  const kinds = await Promise.all(fields.map(([, text]) => findSecretKinds(text)));
  return fields.flatMap(([path, text], i) => [...kinds[i]!.map((kind) => secretError(path, kind)), ...findAbsolutePaths(text).map((p) => absolutePathError(path, p))]);
}
