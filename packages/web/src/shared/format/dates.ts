import dayjs from 'dayjs';

/** Date and time display, pure: the study list's, the report pages', the print sheets'. */

/** DICOM date (YYYYMMDD) as YYYY-MM-DD; anything else as it is. */
export function formatStudyDate(da: string): string {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(da);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : da;
}

/** An ISO time in local time, to the minute; empty for none. */
export function formatTime(iso: string | null | undefined): string {
  return iso ? dayjs(iso).format('YYYY-MM-DD HH:mm') : '';
}

/** YYYYMMDD + HHMMSS as "YYYY-MM-DD HH:MM"; without a study date, the arrival time. */
export function formatStudyTime(date: string, time: string, created: string): string {
  if (/^\d{8}$/.test(date)) {
    const hm = /^\d{4}/.test(time) ? ` ${time.slice(0, 2)}:${time.slice(2, 4)}` : '';
    return `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}${hm}`;
  }
  const d = new Date(created);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A Date (local day) as YYYYMMDD, and back. */
export const toDay = (d: Date) =>
  `${d.getFullYear()}${String(d.getMonth() + 1).padStart(2, '0')}${String(d.getDate()).padStart(2, '0')}`;
export const fromDay = (s: string) => new Date(Number(s.slice(0, 4)), Number(s.slice(4, 6)) - 1, Number(s.slice(6, 8)));
