/** The report editor's keyboard commands (keyboard-first reading, spec 000 §9 "F1 inserts a picture"). */
export type ShortcutCommand = 'save' | 'submit' | 'approve' | 'next' | 'keyImage';

export interface KeyLike {
  key: string;
  code?: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/** The command a key press means, or null. Cmd counts as Ctrl (macOS). */
export function shortcutCommand(event: KeyLike): ShortcutCommand | null {
  const ctrl = event.ctrlKey || event.metaKey;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  if (ctrl && !event.altKey && !event.shiftKey && key === 's') {
    return 'save';
  }
  if (ctrl && !event.altKey && key === 'Enter') {
    return event.shiftKey ? 'approve' : 'submit';
  }
  // Alt+N: on macOS Option+N types "˜", so the physical key decides.
  if (event.altKey && !ctrl && !event.shiftKey && (key === 'n' || event.code === 'KeyN')) {
    return 'next';
  }
  if (!ctrl && !event.altKey && !event.shiftKey && key === 'F1') {
    return 'keyImage';
  }
  return null;
}

/** The shortcut shown in a command's button tooltip. */
export const SHORTCUT_LABELS: Record<ShortcutCommand, string> = {
  save: 'Ctrl+S',
  submit: 'Ctrl+Enter',
  approve: 'Ctrl+Shift+Enter',
  next: 'Alt+N',
  keyImage: 'F1',
};
