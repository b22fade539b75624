const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** A byte count for people: 1536 → "1.5 KB". Unit symbols are the same in every language. */
export function formatBytes(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${value.toFixed(digits)} ${UNITS[unit]}`;
}
