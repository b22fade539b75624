import {
  MAX_BODYPART_COUNT,
  MAX_NOTE_LENGTH,
  REPORT_ADVICE_MAX,
  REPORT_TEXT_MAX,
  type Report,
  type ReportContent,
} from '@yyp/contracts';
import { Input, InputNumber, Radio, Typography } from 'antd';
import type { KeyboardEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ReportExtensionFields } from './ReportExtensionFields';
import type { TextField, TextTargets } from './useTextTargets';

interface ReportTextEditorsProps {
  report: Report;
  draft: ReportContent;
  writable: boolean;
  targets: TextTargets;
  onChange: (change: Partial<ReportContent>) => void;
  /** typing into the text while it may not be edited (another user holds the lock) */
  onBlockedEdit?: (() => void) | undefined;
}

/** A key that would change the text: a character, or deleting one or a new line. */
function typesText(event: KeyboardEvent): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey) {
    return false;
  }
  return event.key.length === 1 || event.key === 'Backspace' || event.key === 'Delete' || event.key === 'Enter';
}

/** Findings and conclusion side by side, then the result flag, body part count, note and advice. */
export function ReportTextEditors({
  report,
  draft,
  writable,
  targets,
  onChange,
  onBlockedEdit,
}: ReportTextEditorsProps) {
  const { t } = useTranslation();
  const showAdvice = report.status === 'advised' || draft.advice !== '' || report.adviceExperts.length > 0;

  const textArea = (field: TextField) => {
    const track = targets.track(field);
    return (
      <section className="yyp-report__text">
        <label htmlFor={`report-${field}`} className="yyp-report__label">
          {t(`report.fields.${field}`)}
        </label>
        <Input.TextArea
          id={`report-${field}`}
          ref={targets.refs[field]}
          className="yyp-report__textarea"
          value={draft[field]}
          readOnly={!writable}
          maxLength={REPORT_TEXT_MAX}
          placeholder={writable ? t(`report.fields.${field}Placeholder`) : undefined}
          onChange={(e) => {
            onChange({ [field]: e.target.value });
            track(e);
          }}
          onSelect={track}
          onFocus={track}
          onKeyDown={(e) => {
            if (!writable && onBlockedEdit && typesText(e)) {
              onBlockedEdit();
            }
          }}
          onKeyUp={track}
          onClick={track}
          spellCheck={false}
        />
      </section>
    );
  };

  return (
    <div className="yyp-report__editors">
      <div className="yyp-report__texts">
        {textArea('findings')}
        {textArea('conclusion')}
      </div>
      <div className="yyp-report__extras">
        <div className="yyp-report__extra">
          <Typography.Text type="secondary">{t('report.fields.positive')}</Typography.Text>
          <Radio.Group
            size="small"
            optionType="button"
            disabled={!writable}
            value={draft.positive === null ? 'unset' : draft.positive ? 'yes' : 'no'}
            onChange={(e) => onChange({ positive: e.target.value === 'unset' ? null : e.target.value === 'yes' })}
            options={[
              { value: 'yes', label: t('report.fields.positiveYes') },
              { value: 'no', label: t('report.fields.positiveNo') },
              { value: 'unset', label: t('report.fields.positiveUnset') },
            ]}
          />
        </div>
        <LabelledExtra id="report-bodyPartCount" label={t('report.fields.bodyPartCount')}>
          <InputNumber
            id="report-bodyPartCount"
            size="small"
            min={1}
            max={MAX_BODYPART_COUNT}
            precision={0}
            disabled={!writable}
            value={draft.bodyPartCount}
            onChange={(value) => onChange({ bodyPartCount: typeof value === 'number' ? value : null })}
          />
        </LabelledExtra>
        <LabelledExtra id="report-note" label={t('report.fields.note')} grow>
          <Input
            id="report-note"
            size="small"
            maxLength={MAX_NOTE_LENGTH}
            showCount
            disabled={!writable}
            value={draft.note}
            placeholder={writable ? t('report.fields.notePlaceholder') : undefined}
            onChange={(e) => onChange({ note: e.target.value })}
          />
        </LabelledExtra>
        <ReportExtensionFields
          bucketId={report.bucketId}
          values={draft.extensions}
          writable={writable}
          onChange={(extensions) => onChange({ extensions })}
        />
      </div>
      {showAdvice && (
        <section className="yyp-report__advice">
          <label htmlFor="report-advice" className="yyp-report__label">
            {t('report.fields.advice')}
          </label>
          <Input.TextArea
            id="report-advice"
            autoSize={{ minRows: 2, maxRows: 6 }}
            maxLength={REPORT_ADVICE_MAX}
            readOnly={!writable}
            value={draft.advice}
            placeholder={writable ? t('report.fields.advicePlaceholder') : undefined}
            onChange={(e) => onChange({ advice: e.target.value })}
          />
        </section>
      )}
    </div>
  );
}

/** One of the report's extra fields under the texts: its label, tied to the control by `id`. */
function LabelledExtra({
  id,
  label,
  grow = false,
  children,
}: {
  id: string;
  label: string;
  grow?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={grow ? 'yyp-report__extra yyp-report__extra--grow' : 'yyp-report__extra'}>
      <label htmlFor={id}>
        <Typography.Text type="secondary">{label}</Typography.Text>
      </label>
      {children}
    </div>
  );
}
