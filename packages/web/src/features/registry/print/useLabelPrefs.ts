import type { LabelLayout, Preferences } from '@yyp/contracts';
import { useMe, useUpdateMe } from '../../../shared/account/useMe';

type PrintLabel = NonNullable<Preferences['printLabel']>;

/**
 * The desk's label printing as stored preferences (spec 000 §9 "print label templates"): the
 * layout (label printer or A4 sheet) and the copies it last printed with.
 */
export function useLabelPrefs() {
  const me = useMe();
  const updateMe = useUpdateMe();
  const saved = me.data?.preferences?.printLabel;
  return {
    layout: (saved?.layout ?? 'label') as LabelLayout,
    copies: saved?.copies ?? 1,
    /** A preference not stored only means it is not remembered: no message. */
    remember: (change: PrintLabel) =>
      updateMe.mutate({ preferences: { printLabel: { ...saved, ...change } } }, { onError: () => undefined }),
  };
}
