import { fenToYuanText, parseYuan, type Currency } from '@yyp/contracts';
import { Input } from 'antd';
import { useEffect, useState } from 'react';

interface YuanInputProps {
  /** the amount in fen; null when empty or not an amount */
  value?: number | null;
  onChange?: (fen: number | null) => void;
  currency: Currency;
  id?: string;
  placeholder?: string;
  disabled?: boolean;
  'aria-label'?: string;
}

/**
 * An amount typed in yuan ("12", "12.5", "12.50") and handed on as integer fen (contracts parseYuan):
 * what is typed stays as typed while it is edited; anything that is not an amount hands on null, which
 * a form rule (yuanRule) turns into a message. Usable as an antd Form item's control.
 */
export function YuanInput({ value, onChange, currency, ...rest }: YuanInputProps) {
  const [text, setText] = useState(() => (value === null || value === undefined ? '' : fenToYuanText(value)));
  useEffect(() => {
    // A value set from outside (a form reset, a loaded record) replaces the text unless it already says it.
    if (value === null || value === undefined) {
      if (parseYuan(text) !== null) setText('');
    } else if (parseYuan(text) !== value) {
      setText(fenToYuanText(value));
    }
    // only when the value changes from outside
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value]);
  return (
    <Input
      {...rest}
      inputMode="decimal"
      prefix={currency === 'USD' ? '$' : '¥'}
      value={text}
      onChange={(event) => {
        setText(event.target.value);
        onChange?.(parseYuan(event.target.value));
      }}
    />
  );
}
