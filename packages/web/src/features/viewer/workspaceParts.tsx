import { App, Input } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { StudyOverlay } from './ViewportCell';
import type { OpenStudy } from './ViewerWorkspace';

/** Pieces of the viewer workspace (ViewerWorkspace.tsx) that need none of its state. */

/** The corner texts of a study's viewports. */
export function studyOverlay(study: OpenStudy, personName: (name: string) => string): StudyOverlay {
  const c = study.context;
  return {
    patientName: personName(c.patientName),
    patientId: c.patientId,
    sexAge: [c.patientSex, c.patientAge].filter(Boolean).join(' / '),
    studyDate: c.studyDate,
    modality: c.modality,
    institution: c.institution,
    prior: study.prior,
  };
}

/** Prompts for an arrow's label (the arrow tool asks through this callback). */
export function useArrowPrompt() {
  const { modal } = App.useApp();
  const { t } = useTranslation();
  return useCallback(
    (done: (text: string) => void) => {
      let value = '';
      modal.confirm({
        title: t('viewer.arrowLabel'),
        icon: null,
        content: <Input autoFocus maxLength={64} onChange={(e) => (value = e.target.value)} />,
        onOk: () => done(value),
        onCancel: () => done(''),
      });
    },
    [modal, t],
  );
}
