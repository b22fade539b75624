import { timestamp } from 'drizzle-orm/pg-core';

/** Timestamps with time zone, read as Date. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
