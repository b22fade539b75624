import { z } from 'zod';

/**
 * Platform-level settings by key (spec 000 §6 "global config (key)", spec 001 §7 GET
 * global-configs/query?keys): a fixed catalogue, each key with its value's schema. Any signed-in
 * user reads them (GET global-configs/query?keys=helpUrl,supportPhone); a platform administrator
 * sets them (PUT global-configs, audited). An unset key reads as null.
 */
const httpUrl = z
  .string()
  .trim()
  .max(512)
  .regex(/^https?:\/\/[^\s]+$/i, 'an http(s) address');
export const globalConfigCatalogue = {
  /** where the help link of the interface goes */
  helpUrl: httpUrl,
  /** the support telephone shown to users */
  supportPhone: z
    .string()
    .trim()
    .min(3)
    .max(32)
    .regex(/^\+?[0-9][0-9 ()-]*$/, 'digits, spaces, dashes, brackets, an optional leading +'),
  /** the support e-mail address shown to users */
  supportEmail: z.string().trim().max(254).email(),
  /** a notice shown to every user (plain text) */
  announcement: z.string().trim().min(1).max(500),
} as const;
export type GlobalConfigKey = keyof typeof globalConfigCatalogue;
export const GLOBAL_CONFIG_KEYS = Object.keys(globalConfigCatalogue) as [GlobalConfigKey, ...GlobalConfigKey[]];

/** Every key's value, null when unset. */
export const globalConfigValuesSchema = z
  .object({
    helpUrl: globalConfigCatalogue.helpUrl.nullable(),
    supportPhone: globalConfigCatalogue.supportPhone.nullable(),
    supportEmail: globalConfigCatalogue.supportEmail.nullable(),
    announcement: globalConfigCatalogue.announcement.nullable(),
  })
  .strict();
export type GlobalConfigValues = z.infer<typeof globalConfigValuesSchema>;

/** GET global-configs/query: the keys asked, comma separated, each of the catalogue (an unknown one is refused). */
export const globalConfigQuerySchema = z.object({
  keys: z
    .string()
    .max(500)
    .transform((s) =>
      s
        .split(',')
        .map((k) => k.trim())
        .filter((k) => k !== ''),
    )
    .pipe(z.array(z.enum(GLOBAL_CONFIG_KEYS)).min(1).max(GLOBAL_CONFIG_KEYS.length)),
});
export type GlobalConfigQuery = z.input<typeof globalConfigQuerySchema>;
/** The keys asked and their values (null: unset). */
export const globalConfigAnswerSchema = globalConfigValuesSchema.partial();
export type GlobalConfigAnswer = z.infer<typeof globalConfigAnswerSchema>;

/** PUT global-configs: the keys given are set (null clears one); the others stay. */
export const globalConfigUpdateSchema = globalConfigValuesSchema
  .partial()
  .refine((v) => Object.keys(v).length > 0, 'at least one key');
export type GlobalConfigUpdate = z.input<typeof globalConfigUpdateSchema>;
