import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MAX_REPORT_IMAGES, type ReportImages } from '@yyp/contracts';
import { useTranslation } from 'react-i18next';
import { addReportImage, deleteReportImage, orderReportImages, patchReportImage } from '../../api/reports';
import { fetchReportImages } from '../../api/viewer';
import { useNotify } from '../../shared/notify/useNotify';
import { imageProblem } from './keyImages';
import { reportKeys } from './useReportEditor';

/** The report's key images and what the editor does to them (add, describe, print flag, order, delete). */
export function useKeyImages(reportId: string) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const key = reportKeys.images(reportId);
  const images = useQuery({
    queryKey: key,
    queryFn: () => fetchReportImages(reportId),
    // The viewer window adds captures (F1 there): look again when the user comes back.
    refetchOnWindowFocus: 'always',
    staleTime: 0,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const list = images.data?.images ?? [];
  const limit = images.data?.limit ?? MAX_REPORT_IMAGES;

  const add = useMutation({
    mutationFn: (file: Blob) => addReportImage(reportId, file),
    onSuccess: async () => {
      notify.success(t('report.snap.added'));
      await refresh();
    },
    onError: notify.error,
  });
  const patch = useMutation({
    mutationFn: ({ id, change }: { id: string; change: { desc?: string; isPrinted?: boolean } }) =>
      patchReportImage(reportId, id, change),
    onSuccess: (image) =>
      queryClient.setQueryData<ReportImages>(key, (old) =>
        old ? { ...old, images: old.images.map((i) => (i.id === image.id ? image : i)) } : old,
      ),
    onError: async (error) => {
      notify.error(error);
      await refresh();
    },
  });
  const order = useMutation({
    mutationFn: (imageIds: string[]) => orderReportImages(reportId, imageIds),
    onMutate: (imageIds) => {
      // Show the new order at once; the answer (or a refresh after a failure) settles it.
      queryClient.setQueryData<ReportImages>(key, (old) =>
        old
          ? { ...old, images: imageIds.map((id) => old.images.find((i) => i.id === id)).filter((i) => i !== undefined) }
          : old,
      );
    },
    onSuccess: (answer) => queryClient.setQueryData(key, answer),
    onError: async (error) => {
      notify.error(error);
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (imageId: string) => deleteReportImage(reportId, imageId),
    onSuccess: refresh,
    onError: notify.error,
  });

  /** Add a file or a pasted image after the checks the server would make anyway. */
  function addImage(file: Blob) {
    const problem = imageProblem(file, list.length, limit);
    if (problem) {
      notify.info(t(`report.snap.${problem}`, { limit }));
      return;
    }
    add.mutate(file);
  }

  return { images, list, limit, addImage, adding: add.isPending, patch, order, remove };
}

export type KeyImages = ReturnType<typeof useKeyImages>;
