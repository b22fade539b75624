import { useQueryClient } from '@tanstack/react-query';
import { checkUpload, resolveUploadType, uploadRules } from '@yyp/contracts';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { upsertConsultationAttachment } from '../../api/consultations';
import { fetchUploadPolicy, uploadWithPolicy } from '../../api/policies';
import { useNotify } from '../../shared/notify/useNotify';
import { formatBytes } from '../../ui/formatBytes';
import { consultationKey } from './useConsultation';

/** One file on its way: its name and how far it got (policy, recorded as processing, stored, completed). */
export interface UploadProgress {
  name: string;
  percent: number;
  failed: boolean;
}

/**
 * Uploads case documents' files (caseId) or result attachments (no caseId): the type and size are
 * checked first (images, PDF, Word, Excel, XPS; spec 000 §9), then GET policies/consultations, the
 * file recorded as processing, PUT to the policy's URL, recorded again as completed; the detail is
 * read again after each file.
 */
export function useAttachmentUpload(consultationId: string, caseId?: string) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<UploadProgress[]>([]);

  const upload = useCallback(
    async (files: readonly File[]) => {
      const set = (name: string, percent: number, failed = false) =>
        setProgress((all) => all.map((p) => (p.name === name ? { name, percent, failed } : p)));
      const accepted = files.filter((file) => {
        const type = resolveUploadType(file.type, file.name);
        const problem = checkUpload('consultations', type, file.size);
        if (problem === 'FileTypeNotAllowed') notify.info(t('consultations.files.typeNotAllowed', { name: file.name }));
        if (problem === 'FileTooLarge') {
          notify.info(
            t('consultations.files.tooLarge', {
              name: file.name,
              max: formatBytes(uploadRules.consultations.maxBytes),
            }),
          );
        }
        return problem === null;
      });
      setProgress((all) => [...all, ...accepted.map((f) => ({ name: f.name, percent: 0, failed: false }))]);
      for (const file of accepted) {
        const fileType = resolveUploadType(file.type, file.name);
        try {
          const policy = await fetchUploadPolicy('consultations', { type: fileType, size: file.size, name: file.name });
          set(file.name, 10);
          const base = {
            ...(caseId ? { caseId } : {}),
            key: policy.key,
            fileName: file.name,
            size: file.size,
            fileType,
          };
          await upsertConsultationAttachment(consultationId, { ...base, uploadStatus: 'processing' });
          set(file.name, 20);
          await uploadWithPolicy(policy, file);
          set(file.name, 90);
          await upsertConsultationAttachment(consultationId, { ...base, uploadStatus: 'completed' });
          set(file.name, 100);
          notify.success(t('consultations.files.uploaded', { name: file.name }));
          setProgress((all) => all.filter((p) => p.name !== file.name));
        } catch (error) {
          set(file.name, 100, true);
          notify.error(error);
        }
        await queryClient.invalidateQueries({ queryKey: consultationKey(consultationId) });
      }
    },
    [caseId, consultationId, notify, queryClient, t],
  );
  const clearFailed = useCallback(() => setProgress((all) => all.filter((p) => !p.failed)), []);
  return { upload, progress, clearFailed };
}
