import {
  type DOB_MATCH_MODES,
  type GROUP_ATTRIBUTE_KEYS,
  GROUP_FLAGS,
  type GroupFlag,
  type GroupSettings,
} from '@yyp/contracts';

/** Unions of the group-setting vocabularies the contracts list as constants. */
export type GroupAttributeKey = (typeof GROUP_ATTRIBUTE_KEYS)[number];
export type DobMatchMode = (typeof DOB_MATCH_MODES)[number];

/** Fields a color rule can match (spec 000 §3 "match field"), as upsertColorRuleSchema allows. */
export const COLOR_MATCH_FIELDS = ['modality', 'bodyPart', 'patientClass', 'urgentFlag', 'status', 'bucketId'] as const;
export type ColorMatchField = (typeof COLOR_MATCH_FIELDS)[number];

export function isColorMatchField(value: string): value is ColorMatchField {
  return (COLOR_MATCH_FIELDS as readonly string[]).includes(value);
}

/** The feature flags that are on, in the contracts' order. */
export function enabledFlags(settings: GroupSettings): GroupFlag[] {
  return GROUP_FLAGS.filter((flag) => settings[flag] === true);
}
