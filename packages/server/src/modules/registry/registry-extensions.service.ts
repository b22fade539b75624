import type { z } from 'zod';
import {
  EXTENSION_TYPES,
  isoDateSchema,
  type bucketExtensionInputSchema,
  type DictionaryItem,
  type ExamExtensionConfig,
  type ExtensionOrg,
  type ProcedureStep,
  type ScheduledExamExtension,
} from '@yyp/contracts';
import type { AccountRow, ScheduledExamRow } from '../../db/schema.js';
import { callerScope } from '../../platform/access.js';
import { canSee } from '../../platform/authz.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db.js';
import { errors } from '../../platform/errors.js';
import { bucketsByIds, type OrganizationsService } from '../organizations/index.js';
import { proceduresOf } from './procedures.store.js';
import { DESK_ACTIONS, DeskAccess, type DeskCaller } from './registry.access.js';
import { allowOrDeny } from './registry.moves.js';
import { deskAudit } from './registry.record.js';
import * as store from './registry.store.js';
import * as orders from './registry-orders.store.js';

type BucketExtensionInput = z.output<typeof bucketExtensionInputSchema>;
type Value = string | number;

/** An exam-scope item of the extension-configs dictionary as the calls answer it (report-scope ones are not). */
export function examConfig(bucketId: string, item: DictionaryItem): ExamExtensionConfig | undefined {
  const data = item.data;
  if (data.scope === 'report') return undefined;
  const type = EXTENSION_TYPES.find((t) => t === data.type) ?? 'text';
  return {
    id: item.id,
    bucketId,
    name: item.name,
    label: typeof data.label === 'string' && data.label ? data.label : item.name,
    type,
    options: Array.isArray(data.options) ? data.options.filter((o): o is string => typeof o === 'string') : [],
    required: data.required === true,
    sort: item.sort,
  };
}

/** Why `value` does not fit the field, or undefined when it does ('' is "no value"). */
export function valueProblem(config: ExamExtensionConfig, value: Value): string | undefined {
  if (value === '') return config.required ? 'a value is required' : undefined;
  switch (config.type) {
    case 'number':
      return typeof value === 'number' ? undefined : 'a number';
    case 'select':
      return typeof value === 'string' && config.options.includes(value)
        ? undefined
        : `one of ${config.options.join(', ')}`;
    case 'date':
      return typeof value === 'string' && isoDateSchema.safeParse(value).success ? undefined : 'a date YYYY-MM-DD';
    case 'text':
      return typeof value === 'string' ? undefined : 'text';
  }
}

/**
 * Exam extension fields (issue 22; spec 001 §7 scheduled-exams upsert-extension, extensions,
 * exam-extension; "Buckets" extensions, bucket-extensions, extends/orgs, steps). The fields are the
 * organization's extension-configs dictionary items of scope exam (organizations face); a
 * scheduled exam keeps its values by config id until its exam exists, when they go onto the exam
 * (registry-dicom.service.ts, with the registration's other fields).
 */
export class RegistryExtensionsService {
  private readonly access: DeskAccess;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly orgs: OrganizationsService,
  ) {
    this.access = new DeskAccess(db);
  }

  /** The organization's exam extension fields, in the dictionary's order. */
  async configs(bucketId: string): Promise<ExamExtensionConfig[]> {
    const items = await this.orgs.dictionary(bucketId, 'extension-configs');
    return items.flatMap((i) => examConfig(bucketId, i) ?? []);
  }

  /** GET scheduled-exams/{id}/exam-extension: any desk action in its organization reads it. */
  async get(caller: DeskCaller, id: string): Promise<ScheduledExamExtension> {
    const exam = await this.scheduled(id);
    await this.access.require(caller, exam.bucketId, DESK_ACTIONS);
    await deskAudit(this.db, caller, 'registry.extension_read', exam.bucketId, undefined, {
      targetId: exam.id,
      details: { accessionNumber: exam.accessionNumber },
    });
    return this.answer(exam);
  }

  /**
   * POST scheduled-exams/{id}/upsert-extension: one value, checked against its field (type,
   * options, required, length); an edit of the registration, so the machine's 'update' rules
   * (registry_update, not Cancelled). Once the scheduled exam has its exam, its values are the
   * exam's (edited there): refused 409.
   */
  async upsert(caller: DeskCaller, id: string, configId: string, value: Value): Promise<ScheduledExamExtension> {
    const exam = await this.editable(caller, id);
    const config = (await this.configs(exam.bucketId)).find((c) => c.id === configId);
    if (!config) throw errors.validation('Not an exam extension field of this organization', { field: 'configId' });
    const problem = valueProblem(config, value);
    if (problem) throw errors.validation(`${config.label}: ${problem}`, { field: 'value', expected: problem });
    const values = { ...exam.extensions };
    if (value === '') delete values[configId];
    else values[configId] = value;
    return this.write(caller, exam, values, { configId, cleared: value === '' });
  }

  /** DELETE scheduled-exams/{id}/extensions/{extensionId}: clears one value; a required field's is refused. */
  async remove(caller: DeskCaller, id: string, configId: string): Promise<ScheduledExamExtension> {
    const exam = await this.editable(caller, id);
    const config = (await this.configs(exam.bucketId)).find((c) => c.id === configId);
    if (config?.required) {
      throw errors.validation(`${config.label}: a value is required`, { field: 'extensionId' });
    }
    if (!(configId in exam.extensions)) throw errors.notFound('Extension value');
    const { [configId]: _gone, ...values } = exam.extensions;
    return this.write(caller, exam, values, { configId, cleared: true });
  }

  /** GET buckets/{id}/extensions (route auth: bucket_read). */
  bucketConfigs(bucketId: string): Promise<ExamExtensionConfig[]> {
    return this.configs(bucketId);
  }

  /**
   * POST bucket-extensions: creates (no id) or changes one exam-scope field: a write of the
   * organization's extension-configs dictionary, so bucket_manage there as for the dictionary.
   */
  async upsertConfig(caller: DeskCaller, input: BucketExtensionInput): Promise<ExamExtensionConfig> {
    const { bucketId, id, name, sort, ...rest } = input;
    const found = await this.access.actionsIn(caller.account, bucketId);
    if (!found) return this.access.deny(caller, bucketId, ['bucket_manage'], 'notFound');
    if (!found.actions.has('bucket_manage')) return this.access.deny(caller, bucketId, ['bucket_manage'], 'forbidden');
    const data = {
      label: rest.label || name,
      type: rest.type,
      ...(rest.type === 'select' ? { options: rest.options } : {}),
      required: rest.required,
      scope: 'exam' as const,
    };
    if (id && !(await this.configs(bucketId)).some((c) => c.id === id)) throw errors.notFound('Extension field');
    const item = id
      ? await this.orgs.updateItem(caller.account, bucketId, 'extension-configs', id, { name, data, sort }, caller.ctx)
      : await this.orgs.addItem(caller.account, bucketId, 'extension-configs', { name, data, sort }, caller.ctx);
    return examConfig(bucketId, item)!;
  }

  /** GET extends/orgs: the organizations the caller sees that have exam extension fields, with them. */
  async orgsWithExtensions(account: AccountRow): Promise<ExtensionOrg[]> {
    const scope = await callerScope(this.db, account);
    const visible = scope.facts.filter((b) => canSee(scope.access, b));
    const rows = await bucketsByIds(
      this.db,
      visible.map((b) => b.id),
    );
    const out: ExtensionOrg[] = [];
    for (const b of rows) {
      const configs = await this.configs(b.id);
      if (configs.length > 0) out.push({ bucketId: b.id, bucketName: b.name, groupId: b.groupId, configs });
    }
    return out;
  }

  /** GET buckets/{id}/steps (route auth: bucket_read): the procedures' steps, flattened in the procedures' order. */
  async steps(bucketId: string): Promise<ProcedureStep[]> {
    const procedures = await proceduresOf(this.db, bucketId);
    return procedures.flatMap((p) =>
      p.steps.map((name, index) => ({
        bucketId,
        procedureId: p.id,
        procedureName: p.name,
        procedureCode: p.code,
        modality: p.modality,
        index,
        name,
      })),
    );
  }

  private async scheduled(id: string): Promise<ScheduledExamRow> {
    const exam = await store.findScheduledExam(this.db, id);
    if (!exam) throw errors.notFound('Scheduled exam');
    return exam;
  }

  /** The scheduled exam when the caller may edit its registration and it has no exam yet. */
  private async editable(caller: DeskCaller, id: string): Promise<ScheduledExamRow> {
    const exam = await this.scheduled(id);
    const { actions } = await this.access.require(caller, exam.bucketId, DESK_ACTIONS);
    const outcome = allowOrDeny(exam, 'update', actions);
    if (!outcome.ok) return this.access.deny(caller, exam.bucketId, outcome.needs, 'forbidden');
    if (exam.examId) throw errors.conflict('The scheduled exam has its exam: edit the extension fields on the exam');
    return exam;
  }

  private async write(
    caller: DeskCaller,
    exam: ScheduledExamRow,
    values: Record<string, Value>,
    details: Record<string, unknown>,
  ): Promise<ScheduledExamExtension> {
    const now = this.clock.now();
    const row = await this.db.transaction(async (tx) => {
      const row = await orders.setScheduledExtensions(tx, exam.id, values, now);
      if (!row) throw errors.conflict('The scheduled exam has its exam: edit the extension fields on the exam');
      await deskAudit(this.db, caller, 'registry.extension', exam.bucketId, undefined, {
        db: tx,
        targetId: exam.id,
        details: { accessionNumber: exam.accessionNumber, ...details },
      });
      return row;
    });
    return this.answer(row);
  }

  private async answer(exam: ScheduledExamRow): Promise<ScheduledExamExtension> {
    return { scheduledExamId: exam.id, values: exam.extensions, configs: await this.configs(exam.bucketId) };
  }
}
