import type { DiffPart, DiffTrace } from '@yyp/contracts';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';

const FIELD_KEYS = ['findings', 'conclusion', 'note', 'advice', 'positive', 'bodyPartCount'] as const;
type FieldKey = (typeof FIELD_KEYS)[number];

/** Whether a diff changes anything at all. */
export function hasChanges(parts: readonly DiffPart[]): boolean {
  return parts.some((part) => part.op !== 'equal' && part.text !== '');
}

/** Adjacent parts of the same kind joined, empty ones dropped: fewer, longer marks to read. */
export function mergeParts(parts: readonly DiffPart[]): DiffPart[] {
  const out: DiffPart[] = [];
  for (const part of parts) {
    if (part.text === '') {
      continue;
    }
    const last = out[out.length - 1];
    if (last && last.op === part.op) {
      out[out.length - 1] = { op: last.op, text: last.text + part.text };
    } else {
      out.push({ ...part });
    }
  }
  return out;
}

/** One field's diff as text with insertions in <ins> and deletions in <del>. */
export function DiffText({ parts }: { parts: readonly DiffPart[] }) {
  const { t } = useTranslation();
  return (
    <p className="yyp-diff">
      {mergeParts(parts).map((part, i) =>
        part.op === 'insert' ? (
          <ins key={i} title={t('report.trace.inserted')}>
            {part.text}
          </ins>
        ) : part.op === 'delete' ? (
          <del key={i} title={t('report.trace.deleted')}>
            {part.text}
          </del>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </p>
  );
}

/** Every field of a diff between two steps, each under its name; unchanged fields say so. */
export function DiffView({ diff }: { diff: DiffTrace }) {
  const { t } = useTranslation();
  const label = (field: string) =>
    (FIELD_KEYS as readonly string[]).includes(field) ? t(`report.trace.field.${field as FieldKey}`) : field;
  return (
    <div className="yyp-diff-view" data-testid="trace-diff">
      {diff.fields.map((field) => (
        <section key={field.field}>
          <Typography.Text strong>{label(field.field)}</Typography.Text>
          {hasChanges(field.parts) ? (
            <DiffText parts={field.parts} />
          ) : (
            <Typography.Paragraph type="secondary">{t('report.trace.noChange')}</Typography.Paragraph>
          )}
        </section>
      ))}
    </div>
  );
}
