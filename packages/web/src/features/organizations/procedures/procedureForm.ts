import { aeTitleSchema, type Procedure } from '@yyp/contracts';
import type { FormRule } from 'antd';
import type { TFunction } from 'i18next';
import type { ProcedureBody } from '../../../api/procedures';

/**
 * The procedure drawer's values and their conversion to the contract's body (procedureInputSchema
 * in contracts procedures.ts, whose limits the form's rules repeat). The price is shown in yuan,
 * stored in fen.
 */
export const PROCEDURE_LIMITS = {
  name: 64,
  code: 32,
  enName: 128,
  scanTech: 64,
  modality: 16,
  /** 100 000 000 fen */
  priceYuan: 1_000_000,
  step: 64,
  steps: 20,
  deviceGroups: 20,
} as const;

export interface ProcedureFormValues {
  name: string;
  code: string;
  enName: string;
  modality: string;
  priceYuan: number | null;
  scanTech: string;
  isEnhanced: boolean;
  bodyPartCount: number | null;
  aeTitle: string | undefined;
  deviceGroupIds: string[];
  steps: string[];
  reportDuringExam: boolean;
  showLocalVideo: boolean;
  imagingOptional: boolean;
}

export function procedureFormValues(procedure: Procedure | null): ProcedureFormValues {
  return {
    name: procedure?.name ?? '',
    code: procedure?.code ?? '',
    enName: procedure?.enName ?? '',
    modality: procedure?.modality ?? '',
    priceYuan: procedure ? procedure.price / 100 : 0,
    scanTech: procedure?.scanTech ?? '',
    isEnhanced: procedure?.isEnhanced ?? false,
    bodyPartCount: procedure?.bodyPartCount ?? 1,
    aeTitle: procedure?.aeTitle || undefined,
    deviceGroupIds: procedure?.deviceGroupIds ?? [],
    steps: procedure?.steps ?? [],
    reportDuringExam: procedure?.reportDuringExam ?? false,
    showLocalVideo: procedure?.showLocalVideo ?? false,
    imagingOptional: procedure?.imagingOptional ?? false,
  };
}

/** Yuan to fen, rounded (the input allows two decimals; 0.1 + 0.2 must not become 30.000000004). */
export const fenOf = (yuan: number | null): number => Math.round((yuan ?? 0) * 100);

/** The price as the table shows it: yuan with two decimals. */
export const yuanText = (fen: number): string => (fen / 100).toFixed(2);

export function procedureBody(values: ProcedureFormValues): ProcedureBody {
  return {
    name: values.name.trim(),
    code: values.code.trim(),
    enName: values.enName.trim(),
    modality: values.modality.trim(),
    price: fenOf(values.priceYuan),
    scanTech: values.scanTech.trim(),
    isEnhanced: values.isEnhanced,
    bodyPartCount: values.bodyPartCount ?? 1,
    aeTitle: (values.aeTitle ?? '').trim(),
    deviceGroupIds: values.deviceGroupIds,
    steps: values.steps.map((step) => step.trim()).filter(Boolean),
    reportDuringExam: values.reportDuringExam,
    showLocalVideo: values.showLocalVideo,
    imagingOptional: values.imagingOptional,
  };
}

/** An AE title as the contract accepts it (1–16 printable ASCII, no backslash); empty passes. */
export function aeTitleRule(t: TFunction): FormRule {
  return {
    validator: async (_rule, value: unknown) => {
      const text = typeof value === 'string' ? value.trim() : '';
      if (text !== '' && !aeTitleSchema.safeParse(text).success) {
        throw new Error(t('procedures.invalidAeTitle'));
      }
    },
  };
}

/** A list of at most `max` entries, each at most `each` characters long. */
export function listRule(t: TFunction, max: number, each?: number): FormRule {
  return {
    validator: async (_rule, value: unknown) => {
      const list = Array.isArray(value) ? (value as string[]) : [];
      if (list.length > max) {
        throw new Error(t('procedures.tooMany', { max }));
      }
      if (each !== undefined && list.some((item) => item.trim().length > each)) {
        throw new Error(t('validation.tooLong', { max: each }));
      }
    },
  };
}

/** Whether a procedure matches the search text (name, code, English name, modality; any case). */
export function matchesSearch(procedure: Procedure, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (needle === '') {
    return true;
  }
  return [procedure.name, procedure.code, procedure.enName, procedure.modality].some((field) =>
    field.toLowerCase().includes(needle),
  );
}

/** The ids in their new order after moving `id` one place up (-1) or down (+1); null at an end. */
export function movedIds(ids: readonly string[], id: string, step: -1 | 1): string[] | null {
  const from = ids.indexOf(id);
  const to = from + step;
  if (from < 0 || to < 0 || to >= ids.length) {
    return null;
  }
  const next = [...ids];
  next[from] = ids[to] as string;
  next[to] = id;
  return next;
}
