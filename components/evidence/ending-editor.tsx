"use client";

import { MATERIALITY_VALUES, TERMINAL_STATES } from "@/lib/evidence/schema";

import { CitationListInput } from "./citation-list-input";
import { EnumSelect } from "./enum-select";
import { Section } from "./section";
import { TextField } from "./text-field";
import type { ChainForm } from "./use-chain-draft";

const P = "evidence_chain.terminal_state";
const MATERIALITY = "evidence_chain.materiality";

/** How the turn ended (terminal state) and how much the chain matters (materiality). */
export function EndingEditor({ form }: { form: ChainForm }) {
  const { terminal_state: terminal, materiality } = form.draft;
  return (
    <Section title="Terminal state" help="How the turn ended.">
      <EnumSelect
        path={`${P}.type`}
        label="Terminal state type"
        options={TERMINAL_STATES}
        value={terminal.type}
        errors={form.errorsAt(`${P}.type`)}
        onChange={(v) => form.edit((d) => void (d.terminal_state.type = v), `${P}.type`)}
      />
      <TextField
        path={`${P}.summary`}
        label="Terminal state summary"
        value={terminal.summary}
        errors={form.errorsAt(`${P}.summary`)}
        onChange={(v) => form.edit((d) => void (d.terminal_state.summary = v), `${P}.summary`)}
      />
      <CitationListInput form={form} owner={P} label="Terminal state" citations={terminal.citations} get={(d) => d.terminal_state.citations} />
      <EnumSelect
        path={MATERIALITY}
        label="Materiality"
        options={MATERIALITY_VALUES}
        value={materiality}
        errors={form.errorsAt(MATERIALITY)}
        onChange={(v) => form.edit((d) => void (d.materiality = v), MATERIALITY)}
      />
    </Section>
  );
}
