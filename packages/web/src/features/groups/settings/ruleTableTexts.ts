import type { TFunction } from 'i18next';
import type { RuleTableTexts } from '../../../shared/rules/RuleTableCard';

/** The i18n sections of the group's rule tables; each has the same six texts. */
type RuleTableSection = 'assignRules' | 'colorRules' | 'reportColors';

/** The texts of a rule table card, from its section of the strings. */
export function ruleTableTexts(t: TFunction, section: RuleTableSection): RuleTableTexts {
  return {
    title: t(`${section}.title`),
    description: t(`${section}.description`),
    add: t(`${section}.add`),
    empty: t(`${section}.empty`),
    deleteConfirm: (name) => t(`${section}.deleteConfirm`, { name }),
    deleted: (name) => t(`${section}.deleted`, { name }),
  };
}
