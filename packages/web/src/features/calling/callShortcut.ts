/**
 * The call-next key of /calling: F2 anywhere, Space when the focus is not in a field (typing a
 * space in a search box or a dialog must not call a patient). Pure, for the page and its tests.
 */

export const CALL_NEXT_KEY_LABEL = 'F2';

interface KeyLike {
  key: string;
  code?: string;
  repeat?: boolean;
  altKey?: boolean;
  ctrlKey?: boolean;
  metaKey?: boolean;
  target: EventTarget | null;
}

/** Whether `target` takes typed text or its own Space (fields, editable text, buttons, dialogs). */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false;
  const element = target as Element;
  if ((element as HTMLElement).isContentEditable) return true;
  return (
    element.closest(
      'input, textarea, select, button, a[href], [contenteditable="true"], [role="textbox"], [role="combobox"], [role="button"], [role="dialog"], [role="menu"], [role="option"]',
    ) !== null
  );
}

/** Whether a keydown asks for the next patient. A held key (repeat) calls once. */
export function isCallNextKey(event: KeyLike): boolean {
  if (event.repeat || event.altKey || event.ctrlKey || event.metaKey) return false;
  if (event.key === 'F2') return true;
  const space = event.key === ' ' || event.code === 'Space';
  return space && !isTypingTarget(event.target);
}
