/**
 * Numbers as Alibaba Cloud SMS takes them: mainland numbers as their 11 digits (a +86 or 86
 * prefix dropped), other countries as country code and number without + (its international
 * SMS). Anything else is refused by the service (isv.MOBILE_NUMBER_ILLEGAL).
 */
export function serviceNumber(phone: string): string {
  const digits = phone.trim().replace(/^\+/, '');
  if (/^861[0-9]{10}$/.test(digits)) return digits.slice(2);
  return digits;
}

/** A number for the log: only its last four digits. */
export function maskedPhone(phone: string): string {
  return `${'*'.repeat(Math.max(0, phone.length - 4))}${phone.slice(-4)}`;
}
