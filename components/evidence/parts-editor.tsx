"use client";

import { CHECK_TYPES, OUTCOME_CATEGORIES } from "@/lib/evidence/schema";

import { CitationListInput } from "./citation-list-input";
import { type ChainDraft, type CitedDraft, newCited } from "./draft";
import { EnumSelect } from "./enum-select";
import { FieldError } from "./field-error";
import { AddButton, ItemCard, Section } from "./section";
import { TextField } from "./text-field";
import type { ChainForm } from "./use-chain-draft";
import { fieldId } from "./validation";

type PartKey = "agent_reactions" | "outcomes" | "observed_checks";
type PartItem = CitedDraft & { category?: string; type?: string };
type PartConfig = {
  title: string;
  help: string;
  /** "Outcome": items are "Outcome 1", inputs "Outcome 1 summary". */
  item: string;
  select?: { field: "category" | "type"; label: string; options: Readonly<Record<string, string>> };
};

const PARTS: Record<PartKey, PartConfig> = {
  agent_reactions: { title: "Agent reactions", help: "What the agent did in response, with the lines that show it.", item: "Reaction" },
  outcomes: {
    title: "Outcomes",
    help: "Evidence-backed results. Cite agent reaction lines, not only the trigger's.",
    item: "Outcome",
    select: { field: "category", label: "category", options: OUTCOME_CATEGORIES },
  },
  observed_checks: {
    title: "Observed checks",
    help: "Visible checks or feedback on the result.",
    item: "Check",
    select: { field: "type", label: "type", options: CHECK_TYPES },
  },
};

// The three lists differ only in their select field; the draft's arrays are read through one type.
const itemsOf = (d: ChainDraft, key: PartKey): PartItem[] => d[key];

/** Agent reactions, outcomes or observed checks: add/remove items, each with summary and citations. */
export function PartsEditor({ form, part }: { form: ChainForm; part: PartKey }) {
  const config = PARTS[part];
  const items = itemsOf(form.draft, part);
  const listPath = `evidence_chain.${part}`;
  const add = () => form.edit((d) => void itemsOf(d, part).push(config.select ? { ...newCited(), [config.select.field]: "" } : newCited()));
  return (
    <Section title={`${config.title} (${items.length})`} help={config.help} action={<AddButton onClick={add}>{`+ Add ${config.item.toLowerCase()}`}</AddButton>}>
      {items.map((item, i) => {
        const at = `${listPath}[${i}]`;
        const label = `${config.item} ${i + 1}`;
        const select = config.select;
        return (
          <ItemCard key={item.id} title={label} removeLabel={`Remove ${label.toLowerCase()}`} onRemove={() => form.edit((d) => void itemsOf(d, part).splice(i, 1), listPath)}>
            {select && (
              <EnumSelect
                path={`${at}.${select.field}`}
                label={`${label} ${select.label}`}
                options={select.options}
                value={item[select.field] ?? ""}
                errors={form.errorsAt(`${at}.${select.field}`)}
                onChange={(v) => form.edit((d) => void (itemsOf(d, part)[i]![select.field] = v), `${at}.${select.field}`)}
              />
            )}
            <TextField
              path={`${at}.summary`}
              label={`${label} summary`}
              value={item.summary}
              errors={form.errorsAt(`${at}.summary`)}
              onChange={(v) => form.edit((d) => void (itemsOf(d, part)[i]!.summary = v), `${at}.summary`)}
            />
            <CitationListInput form={form} owner={at} label={label} citations={item.citations} get={(d) => itemsOf(d, part)[i]!.citations} />
          </ItemCard>
        );
      })}
      {/* Errors about the list as a whole: a material_result needs an outcome. */}
      <FieldError id={`${fieldId(listPath)}-error`} errors={form.errorsAt(listPath)} />
    </Section>
  );
}

