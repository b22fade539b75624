import { useQuery } from '@tanstack/react-query';
import { NOTIFICATION_TOAST_SECONDS, type ExamItem } from '@yyp/contracts';
import { notification as antNotification } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchNewExams } from '../../api/exams';
import { useSessionState } from '../../shared/session/useSessionState';
import { pollInterval } from '../../shared/notify/pollInterval';
import { planToasts } from '../../shared/notify/toastPlan';
import { newExamsSince, type NewExamWatch } from './newExams';
import { usePersonName } from '../../ui/usePersonName';

const key = (id: string) => `new-exam:${id}`;

/**
 * What the poll has seen, per signed-in user, kept for the life of the page: the study list
 * remounts (navigation, revalidation) without toasting again what was already there.
 */
const watches = new Map<string, NewExamWatch>();

/**
 * The new-exam poll (spec 000 §9): every 30 s, exams created since the newest one seen; a toast of
 * 10 s for each, at most 3 at once; a click opens the exam. The poll stops on 401 like the bell's.
 * Answers the toasts' holder to render; calls onArrived so the list can refresh.
 */
export function useNewExamToasts(onOpen: (exam: ExamItem) => void, onArrived: () => void) {
  const { t } = useTranslation();
  const personName = usePersonName();
  const { session } = useSessionState();
  const user = session?.username ?? '';
  const [api, holder] = antNotification.useNotification({ top: 64, stack: false });
  const open = useRef<string[]>([]);
  const handlers = useRef({ onOpen, onArrived });
  useEffect(() => {
    handlers.current = { onOpen, onArrived };
  });
  const poll = useQuery({
    queryKey: ['exams', 'newly', user],
    queryFn: ({ signal }) => fetchNewExams(watches.get(user)?.since, signal),
    refetchInterval: (query) => pollInterval(query.state.error),
    staleTime: 0,
    gcTime: 0,
  });

  useEffect(() => {
    if (!poll.data) {
      return;
    }
    const { watch, fresh } = newExamsSince(watches.get(user), poll.data.exams);
    watches.set(user, watch);
    if (fresh.length === 0) {
      return;
    }
    const plan = planToasts(
      open.current,
      fresh.map((e) => e.id),
    );
    open.current = plan.open;
    plan.close.forEach((id) => api.destroy(key(id)));
    for (const id of [...plan.show].reverse()) {
      const exam = fresh.find((e) => e.id === id)!;
      api.info({
        key: key(id),
        title: `${t('studyList.newExam')} · ${personName(exam.patientName)}`,
        description: t('studyList.newExamIn', {
          modality: exam.modality.replace(/\\/g, '/'),
          bodyPart: exam.bodyPart,
          organization: exam.bucketName,
        }),
        duration: NOTIFICATION_TOAST_SECONDS,
        placement: 'topRight',
        onClose: () => {
          open.current = open.current.filter((shown) => shown !== id);
        },
        onClick: () => {
          api.destroy(key(id));
          handlers.current.onOpen(exam);
        },
      });
    }
    handlers.current.onArrived();
  }, [poll.data, api, t, user, personName]);

  return holder;
}
