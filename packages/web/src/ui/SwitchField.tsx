import { Form, Switch } from 'antd';
import { useId, type ReactNode } from 'react';

interface SwitchFieldProps {
  name: string | string[];
  label: ReactNode;
  hint?: ReactNode;
}

/** A boolean form field as one dense row: label and hint on the left, the switch on the right. */
export function SwitchField({ name, label, hint }: SwitchFieldProps) {
  const id = useId();
  return (
    <div className="yyp-switch-field">
      <div className="yyp-switch-field__text">
        <label htmlFor={id}>{label}</label>
        {hint && <div className="yyp-switch-field__hint">{hint}</div>}
      </div>
      <Form.Item name={name} valuePropName="checked" noStyle>
        <Switch id={id} size="small" />
      </Form.Item>
    </div>
  );
}
