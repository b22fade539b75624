import { useMutation } from '@tanstack/react-query';
import { hospitalDate, registryOrderCalls, type Language, type RegistryQuery } from '@yyp/contracts';
import { useTranslation } from 'react-i18next';
import { callApi } from '../../api/call';
import { useNotify } from '../../shared/notify/useNotify';
import { saveBlob } from '../../ui/saveBlob';

/**
 * The registry's export button (POST exports/schedules): the list's filters and sort, without its
 * paging, as .xlsx in the interface language. Over the export limit the server refuses with the
 * count (ExportLimitExceeded), which the notice shows.
 */
export function useRegistryExport(bucketId: string) {
  const { t, i18n } = useTranslation();
  const notify = useNotify();
  return useMutation({
    mutationFn: async (query: RegistryQuery) => {
      const { skip: _skip, limit: _limit, ...filters } = query;
      notify.info(t('registry.exporting'));
      const body = { ...filters, bucketId, language: i18n.language as Language };
      return callApi(
        registryOrderCalls.exportSchedules,
        { body },
        { as: 'blob', timeoutMs: 120_000 },
      ) as Promise<unknown> as Promise<Blob>;
    },
    onSuccess: (blob) => saveBlob(blob, `schedules-${hospitalDate(new Date()).replace(/-/g, '')}.xlsx`),
    onError: notify.error,
  });
}
