import type { LabelLayout } from '@yyp/contracts';
import { App } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../api/errors';
import { fetchLabelsPdf, fetchReferralFormsPdf } from '../../../api/registryPrint';
import { currentLanguage } from '../../../i18n';
import { useNotify } from '../../../shared/notify/useNotify';
import { saveBlob } from '../../../ui/saveBlob';

export type PrintKind = 'labels' | 'referralForms';
/** `open`: the PDF in a new tab, printed by the browser; `download`: saved as a file. */
export type PrintMode = 'open' | 'download';

/** The server's refusals the desk can act on, each with its own sentence. */
const PROBLEMS = ['notSameDay', 'differentOrganizations', 'cancelled'] as const;

function problemOf(error: unknown): (typeof PROBLEMS)[number] | undefined {
  if (!isApiError(error) || typeof error.details !== 'object' || error.details === null) return undefined;
  const problem = (error.details as { problem?: unknown }).problem;
  return PROBLEMS.find((p) => p === problem);
}

/**
 * Labels and referral forms of scheduled exams as PDFs (issue 22): opened in a new tab for the
 * browser to print, or downloaded. The tab is opened at the click, before the PDF is asked for,
 * so a popup blocker lets it through; it is closed again when the server refuses.
 */
export function useRegistryPrint() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);

  async function print(
    kind: PrintKind,
    ids: string[],
    options: { layout?: LabelLayout; mode?: PrintMode; copies?: number } = {},
  ) {
    const mode = options.mode ?? 'open';
    const tab = mode === 'open' ? window.open('', '_blank') : null;
    setBusy(true);
    try {
      const lang = currentLanguage();
      const blob =
        kind === 'labels'
          ? await fetchLabelsPdf({
              scheduledIds: ids,
              layout: options.layout ?? 'label',
              copies: options.copies ?? 1,
              lang,
            })
          : await fetchReferralFormsPdf({ scheduledIds: ids, lang });
      if (tab) {
        tab.location.href = URL.createObjectURL(blob);
        notify.info(t('registryPrint.opened'));
      } else {
        saveBlob(
          blob,
          `${kind === 'labels' ? 'labels' : 'referral-forms'}-${new Date().toISOString().slice(0, 10)}.pdf`,
        );
        notify.success(t('registryPrint.saved'));
      }
    } catch (error) {
      tab?.close();
      const problem = problemOf(error);
      if (problem) void message.error(t(`registryPrint.${problem}`));
      else notify.error(error);
    } finally {
      setBusy(false);
    }
  }

  return { print, busy };
}
