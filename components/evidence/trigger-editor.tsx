"use client";

import { TRIGGER_TYPES } from "@/lib/evidence/schema";

import { CitationListInput } from "./citation-list-input";
import { newId } from "./draft";
import { EnumSelect } from "./enum-select";
import { AddButton, ItemCard, Section } from "./section";
import { TextField } from "./text-field";
import type { ChainForm } from "./use-chain-draft";

const P = "evidence_chain.trigger";

/** Trigger: what drove the agent's reaction — type, summary, quoted user messages, citations. */
export function TriggerEditor({ form }: { form: ChainForm }) {
  const { trigger } = form.draft;
  const addQuote = () => form.edit((d) => void d.trigger.quoted_messages.push({ id: newId(), text: "", citations: [] }));
  return (
    <Section title="Trigger" help="What drove the agent reaction in this turn.">
      <EnumSelect
        path={`${P}.type`}
        label="Trigger type"
        options={TRIGGER_TYPES}
        value={trigger.type}
        errors={form.errorsAt(`${P}.type`)}
        onChange={(v) => form.edit((d) => void (d.trigger.type = v), `${P}.type`)}
      />
      <TextField
        path={`${P}.summary`}
        label="Trigger summary"
        value={trigger.summary}
        errors={form.errorsAt(`${P}.summary`)}
        onChange={(v) => form.edit((d) => void (d.trigger.summary = v), `${P}.summary`)}
      />
      <CitationListInput form={form} owner={P} label="Trigger" citations={trigger.citations} get={(d) => d.trigger.citations} />

      <div className="flex items-baseline justify-between">
        <h4 className="text-2xs font-semibold text-muted">Quoted messages ({trigger.quoted_messages.length})</h4>
        <AddButton onClick={addQuote}>+ Add quoted message</AddButton>
      </div>
      {trigger.quoted_messages.map((quote, j) => {
        const at = `${P}.quoted_messages[${j}]`;
        const label = `Quoted message ${j + 1}`;
        return (
          <ItemCard
            key={quote.id}
            title={label}
            removeLabel={`Remove quoted message ${j + 1}`}
            onRemove={() => form.edit((d) => void d.trigger.quoted_messages.splice(j, 1))}
          >
            <TextField
              path={`${at}.text`}
              label={`${label} text`}
              value={quote.text}
              errors={form.errorsAt(`${at}.text`)}
              onChange={(v) => form.edit((d) => void (d.trigger.quoted_messages[j]!.text = v), `${at}.text`)}
            />
            <CitationListInput form={form} owner={at} label={label} citations={quote.citations} get={(d) => d.trigger.quoted_messages[j]!.citations} />
          </ItemCard>
        );
      })}
    </Section>
  );
}
