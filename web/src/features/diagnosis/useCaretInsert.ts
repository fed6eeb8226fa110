// Inserting a term where the expert is writing: the diagnosis field that last
// had focus (the opinion until one had), at its caret or over its selection.
// The text goes through the draft like typing, so autosave picks it up.
import { useCallback, useRef } from 'react';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import { insertAtCaret } from './terms';
import type { DraftFields } from './useDraft';

type Field = keyof DraftFields;

/** What a diagnosis field's text area needs to take part. */
export type CaretBinder = (k: Field) => { ref: (r: TextAreaRef | null) => void; onFocus: () => void };

export function useCaretInsert(values: DraftFields, setField: (k: Field, v: string) => void, max: (k: Field) => number) {
  const last = useRef<Field>('opinion');
  const focused = useRef(new Set<Field>());
  const els = useRef<Partial<Record<Field, HTMLTextAreaElement>>>({});
  const latest = useRef(values);
  latest.current = values;

  const bind: CaretBinder = useCallback(
    (k) => ({
      ref: (r) => {
        if (r?.resizableTextArea?.textArea) els.current[k] = r.resizableTextArea.textArea;
        else delete els.current[k];
      },
      onFocus: () => {
        last.current = k;
        focused.current.add(k);
      },
    }),
    [],
  );

  /** Puts the caret back into the last field (after the popover closes). */
  const focus = useCallback((caret?: number) => {
    const el = els.current[last.current];
    if (!el) return;
    el.focus();
    if (caret !== undefined) el.setSelectionRange(caret, caret);
  }, []);

  /** Inserts text; false (and nothing changed) when the field would get too long. */
  const insert = useCallback(
    (text: string): boolean => {
      const k = last.current;
      const el = els.current[k];
      const cur = latest.current[k] ?? '';
      // A field never focused has no caret of the writer's: add to its end.
      const [start, end] = el && focused.current.has(k) ? [el.selectionStart, el.selectionEnd] : [cur.length, cur.length];
      const next = insertAtCaret(cur, start, end, text);
      if (next.value.length > max(k)) return false;
      latest.current = { ...latest.current, [k]: next.value };
      setField(k, next.value);
      // After React has written the new value (which moves the caret to the end).
      setTimeout(() => focus(next.caret), 0);
      return true;
    },
    [setField, max, focus],
  );

  return { bind, insert, focus };
}
