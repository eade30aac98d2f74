"use client";

import { createContext, type ReactNode, useContext } from "react";

const WriteRefusal = createContext<string | null>(null);

/** Gives the page's writing controls the reason this browser may not write (components/team/write-refusal), or null: they may. */
export function WriteAccessProvider({ refusal, children }: { refusal: string | null; children: ReactNode }) {
  return <WriteRefusal.Provider value={refusal}>{children}</WriteRefusal.Provider>;
}

/** Why this browser may not write, in plain words, or null when it may (outside a provider too: a local dashboard). */
export function useWriteRefusal(): string | null {
  return useContext(WriteRefusal);
}

/** The reason a writing control is disabled, shown beside it (`id`: for the control's aria-describedby). */
export function WriteRefusalNote({ id, refusal }: { id: string; refusal: string }) {
  return (
    <p id={id} className="text-2xs text-muted">
      {refusal}
    </p>
  );
}
