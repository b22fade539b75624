import { useMutation } from '@tanstack/react-query';
import type { ShareLinkCreated } from '@yyp/contracts';
import { useTranslation } from 'react-i18next';
import { useNotify } from '../../shared/notify/useNotify';
import { publishReports } from './sharingApi';

interface PublishReportOptions {
  /** the publish link the server made, to show once */
  onLink: (link: ShareLinkCreated) => void;
  /** after an answer, published or refused: refresh what lists the report's links */
  onAnswered: () => unknown;
}

/** Publishing one report (by its exam id): its link, or a toast with the reason the server refused. */
export function usePublishReport(examId: string, { onLink, onAnswered }: PublishReportOptions) {
  const { t } = useTranslation();
  const notify = useNotify();
  return useMutation({
    mutationFn: () => publishReports([examId]),
    onSuccess: ({ results }) => {
      const result = results[0];
      if (result?.link) {
        onLink(result.link);
      } else {
        notify.info(t(`sharing.publish.refused.${result?.reason ?? 'notApproved'}`));
      }
      void onAnswered();
    },
    onError: notify.error,
  });
}
