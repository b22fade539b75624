import { z } from 'zod';

/** AE titles: 1–16 characters of the default repertoire, no backslash or control characters. */
export const AE_TITLE_PATTERN = /^[\x20-\x5b\x5d-\x7e]{1,16}$/;

export const modalitySchema = z.object({
  id: z.string(),
  aeTitle: z.string(),
  host: z.string().nullable(),
  name: z.string(),
});
export type Modality = z.infer<typeof modalitySchema>;

export const upsertModalitySchema = z.object({
  aeTitle: z.string().trim().regex(AE_TITLE_PATTERN),
  host: z.union([z.ipv4(), z.ipv6()]).nullable().optional(),
  name: z.string().trim().min(1).max(64),
});
