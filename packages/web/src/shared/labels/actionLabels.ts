import { ACTION_CATALOGUE, isAction, type ActionCategory } from '@yyp/contracts';
import type { TFunction } from 'i18next';

export function isActionCategory(value: string): value is ActionCategory {
  return Object.hasOwn(ACTION_CATALOGUE, value);
}

/** The translated name of a catalogue action; an action this release does not know keeps its code. */
export function actionLabel(t: TFunction, action: string): string {
  return isAction(action) ? t(`actions.${action}`) : action;
}

export function categoryLabel(t: TFunction, category: string): string {
  return isActionCategory(category) ? t(`actionCategories.${category}`) : category;
}

/** Actions grouped by catalogue category, in catalogue order; unknown actions go to the end. */
export function groupActionsByCategory(actions: readonly string[]): { category: string; actions: string[] }[] {
  const held = new Set(actions);
  const groups = Object.entries(ACTION_CATALOGUE)
    .map(([category, list]) => ({ category, actions: (list as readonly string[]).filter((a) => held.has(a)) }))
    .filter((group) => group.actions.length > 0);
  const known = new Set(groups.flatMap((g) => g.actions));
  const unknown = actions.filter((a) => !known.has(a));
  return unknown.length ? [...groups, { category: 'unknown', actions: unknown }] : groups;
}
