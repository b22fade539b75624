import { Checkbox, Typography } from 'antd';
import type { CheckboxChangeEvent } from 'antd/es/checkbox';
import { useTranslation } from 'react-i18next';
import type { ActionCatalogue } from '../../../api/contractTypes';
import { actionLabel, categoryLabel } from '../../../shared/labels/actionLabels';

interface ActionChecklistProps {
  catalogue: ActionCatalogue;
  value?: string[];
  onChange?: (actions: string[]) => void;
  disabled?: boolean;
}

/**
 * The action catalogue as checkboxes grouped by category, each category with a box that selects
 * or clears all of it. The value keeps catalogue order so saved roles read the same way.
 */
export function ActionChecklist({ catalogue, value = [], onChange, disabled }: ActionChecklistProps) {
  const { t } = useTranslation();
  const selected = new Set(value);
  const order = catalogue.flatMap((group) => group.actions);

  function emit(next: Set<string>) {
    onChange?.(order.filter((action) => next.has(action)));
  }

  function handleCategory(actions: string[], event: CheckboxChangeEvent) {
    const next = new Set(selected);
    for (const action of actions) {
      if (event.target.checked) {
        next.add(action);
      } else {
        next.delete(action);
      }
    }
    emit(next);
  }

  function handleAction(action: string, event: CheckboxChangeEvent) {
    const next = new Set(selected);
    if (event.target.checked) {
      next.add(action);
    } else {
      next.delete(action);
    }
    emit(next);
  }

  return (
    <div className="yyp-action-list">
      {catalogue.map(({ category, actions }) => {
        const count = actions.filter((a) => selected.has(a)).length;
        const label = categoryLabel(t, category);
        return (
          <div key={category} role="group" aria-label={label} className="yyp-action-group">
            <div className="yyp-action-group__head">
              <Checkbox
                checked={count === actions.length}
                indeterminate={count > 0 && count < actions.length}
                onChange={(event) => handleCategory(actions, event)}
                disabled={disabled}
                aria-label={t('roles.selectCategory', { category: label })}
              >
                <span className="yyp-action-group__title">{label}</span>
              </Checkbox>
              <Typography.Text type="secondary" className="yyp-action-group__count">
                {t('roles.actionCount', { count, total: actions.length })}
              </Typography.Text>
            </div>
            <div className="yyp-action-group__items">
              {actions.map((action) => (
                <Checkbox
                  key={action}
                  checked={selected.has(action)}
                  onChange={(event) => handleAction(action, event)}
                  disabled={disabled}
                  className="yyp-action-item"
                >
                  <span className="yyp-action-item__label">{actionLabel(t, action)}</span>
                  <code className="yyp-action-item__code">{action}</code>
                </Checkbox>
              ))}
            </div>
          </div>
        );
      })}
    </div>
  );
}
