import type { TextAreaRef } from 'antd/es/input/TextArea';
import { useCallback, useMemo, useRef, type SyntheticEvent } from 'react';
import { insertAtCursor, selectedText, type Selection } from './textInsert';

export type TextField = 'findings' | 'conclusion';

/**
 * The findings and conclusion textareas as insertion targets: remembers which one was used last and
 * where its caret was, so a phrase clicked in the library lands there, and the caret follows it.
 */
export function useTextTargets(
  getValue: (field: TextField) => string,
  onChange: (field: TextField, value: string) => void,
) {
  const findings = useRef<TextAreaRef>(null);
  const conclusion = useRef<TextAreaRef>(null);
  const last = useRef<{ field: TextField; selection: Selection } | null>(null);
  const valueRef = useRef(getValue);
  valueRef.current = getValue;
  const changeRef = useRef(onChange);
  changeRef.current = onChange;

  const element = useCallback(
    (field: TextField) => (field === 'findings' ? findings : conclusion).current?.resizableTextArea?.textArea ?? null,
    [],
  );

  const track = useCallback(
    (field: TextField) => (event: SyntheticEvent<HTMLTextAreaElement>) => {
      const el = event.currentTarget;
      last.current = { field, selection: { start: el.selectionStart, end: el.selectionEnd } };
    },
    [],
  );

  /** Put `text` at the caret of the last used editor (the findings when none was used yet). */
  const insert = useCallback(
    (text: string, into?: TextField) => {
      const field = into ?? last.current?.field ?? 'findings';
      const selection = last.current?.field === field ? last.current.selection : null;
      const next = insertAtCursor(valueRef.current(field), text, selection);
      changeRef.current(field, next.value);
      last.current = { field, selection: { start: next.cursor, end: next.cursor } };
      // After React has written the new value, give the caret back right after the inserted text.
      requestAnimationFrame(() => {
        const el = element(field);
        el?.focus();
        el?.setSelectionRange(next.cursor, next.cursor);
      });
    },
    [element],
  );

  /** The text selected in the last used editor ('' when none). */
  const selection = useCallback(() => {
    const current = last.current;
    return current ? selectedText(valueRef.current(current.field), current.selection) : '';
  }, []);

  return useMemo(() => ({ refs: { findings, conclusion }, track, insert, selection }), [track, insert, selection]);
}

export type TextTargets = ReturnType<typeof useTextTargets>;
