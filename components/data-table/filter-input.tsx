"use client";

import { useEffect, useRef, useState } from "react";

const DEBOUNCE_MS = 250;

type FilterInputProps = {
  /** The input's id (its label points at it). */
  id: string;
  /** The visible label, also the input's accessible name ("Filter sessions"). */
  label: string;
  placeholder: string;
  /** The committed filter (from the URL). */
  value: string;
  onCommit: (value: string) => void;
  /** Width classes of the input. */
  widthClassName?: string;
};

/** Text filter: typing updates the field at once and commits (trimmed) once typing pauses, on Enter, or when focus leaves the field. */
export function FilterInput({ id, label, placeholder, value, onCommit, widthClassName = "w-72" }: FilterInputProps) {
  const [text, setText] = useState(value);
  const [committed, setCommitted] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  // The URL changed under us (back/forward, a shared link): show its filter. Adjusting state
  // during render is React's documented alternative to an effect for this.
  if (value !== committed) {
    setCommitted(value);
    if (value !== text.trim()) setText(value);
  }

  useEffect(() => () => clearTimeout(timer.current), []);

  const commitLater = (next: string) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => onCommit(next.trim()), DEBOUNCE_MS);
  };

  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-xs font-medium text-muted">
        {label}
      </label>
      <input
        id={id}
        type="search"
        value={text}
        placeholder={placeholder}
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => {
          setText(event.target.value);
          commitLater(event.target.value);
        }}
        onKeyDown={(event) => {
          if (event.key === "Enter") {
            clearTimeout(timer.current);
            onCommit(text.trim());
          }
        }}
        // Leaving the field commits at once: a pending commit firing after a row link was
        // clicked would rewrite the URL under that navigation and cancel it.
        onBlur={() => {
          clearTimeout(timer.current);
          if (text.trim() !== committed) onCommit(text.trim());
        }}
        className={`h-8 rounded-md border border-line-strong bg-surface px-2.5 text-sm placeholder:text-faint focus:border-accent ${widthClassName}`}
      />
    </div>
  );
}
