import { z } from 'zod';

/**
 * Money (spec 001 §9: CNY and USD, two decimals, shown in yuan; issue 24): amounts travel and are
 * stored as integer fen (hundredths) with their currency, so no sum ever rounds. Yuan appear only
 * at the edges: typed by people (parseYuan) and shown to them (formatMoney: ¥12.50, $12.50).
 */
export const CURRENCIES = ['CNY', 'USD'] as const;
export const currencySchema = z.enum(CURRENCIES);
export type Currency = z.infer<typeof currencySchema>;

/** The largest amount one order, payment or top-up may carry: ¥10,000,000.00. */
export const MAX_AMOUNT_FEN = 1_000_000_000;

/** A non-negative whole number of fen. */
export const fenSchema = z.number().int().min(0).max(MAX_AMOUNT_FEN);
/** A positive whole number of fen (a price, a payment, a refund). */
export const positiveFenSchema = z.number().int().min(1).max(MAX_AMOUNT_FEN);

export const moneySchema = z.object({ amountFen: fenSchema, currency: currencySchema });
export type Money = z.infer<typeof moneySchema>;

const SYMBOL: Record<Currency, string> = { CNY: '¥', USD: '$' };

/** 1250 CNY → "¥12.50"; negative amounts as "-¥12.50"; thousands are grouped ("¥1,234.00"). */
export function formatMoney(amountFen: number, currency: Currency): string {
  const sign = amountFen < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(amountFen));
  const yuan = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${SYMBOL[currency]}${yuan}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * What a person typed in yuan ("12", "12.5", "12.50") as fen; null for anything else (more than
 * two decimals, signs, exponents, amounts over MAX_AMOUNT_FEN).
 */
export function parseYuan(text: string): number | null {
  const m = /^\s*(\d{1,8})(?:\.(\d{1,2}))?\s*$/.exec(text);
  if (!m) return null;
  const fen = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return fen <= MAX_AMOUNT_FEN ? fen : null;
}

/** fen → "12.50" (no symbol), for inputs and exports. */
export function fenToYuanText(amountFen: number): string {
  const sign = amountFen < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(amountFen));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
