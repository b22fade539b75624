import { formatMoney, type Currency } from '@yyp/contracts';

/**
 * An amount as people read it (spec 000 §9: in yuan, two decimals): 1250 CNY → ¥12.50, USD → $12.50.
 * Amounts travel as integer fen; this is the only place they become yuan on screen.
 */
export function Money({ fen, currency, strong = false }: { fen: number; currency: Currency; strong?: boolean }) {
  const text = formatMoney(fen, currency);
  return (
    <span className="yyp-money" data-fen={fen}>
      {strong ? <strong>{text}</strong> : text}
    </span>
  );
}
