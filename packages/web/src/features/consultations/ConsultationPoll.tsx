import { useQuery } from '@tanstack/react-query';
import { CONSULTATION_POLL_MS, NOTIFICATION_TOAST_SECONDS } from '@yyp/contracts';
import { notification as antNotification } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { queryConsultations } from '../../api/consultations';
import { usePermissions } from '../../shared/permissions/permissions';
import { useSessionState } from '../../shared/session/useSessionState';
import { usePersonName } from '../../ui/usePersonName';
import { CONSULTATION_POLL_BODY, consultationPollInterval, playChime, takeUnseen } from './consultationPoll';

/**
 * The consultation poll (spec 000 §9, spec 001 §7): every 60 s the newest 5 pending consultations;
 * each one not seen before in this session toasts for 10 s with the patient, the reason and the
 * requesting organization, and a click opens it; a chime plays when `sound` (the group's
 * autoConsulNotifyAudio). It stops on 401. Mounted by the shell where consultations are on.
 */
export function ConsultationPoll({
  sound,
  intervalMs = CONSULTATION_POLL_MS,
}: {
  sound: boolean;
  intervalMs?: number;
}) {
  const { t } = useTranslation();
  const personName = usePersonName();
  const navigate = useNavigate();
  const { session } = useSessionState();
  const user = session?.username ?? '';
  const [api, holder] = antNotification.useNotification({ top: 64, stack: false });
  const soundRef = useRef(sound);
  useEffect(() => {
    soundRef.current = sound;
  });
  const poll = useQuery({
    queryKey: ['consultations', 'poll', user],
    queryFn: ({ signal }) => queryConsultations(CONSULTATION_POLL_BODY, signal),
    refetchInterval: (query) => consultationPollInterval(query.state.error, intervalMs),
    refetchIntervalInBackground: true,
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });

  // A request is news to the organization asked (its experts and staff), not to the one asking.
  const held = usePermissions();
  useEffect(() => {
    if (!poll.data) return;
    const fresh = takeUnseen(
      user,
      poll.data.filter((item) => held.actionsIn(item.targetBucketId).size > 0),
    );
    if (fresh.length === 0) return;
    if (soundRef.current) playChime();
    for (const item of [...fresh].reverse()) {
      const key = `consultation:${item.id}`;
      api.info({
        key,
        title: t('consultations.toast.title', { patient: personName(item.patientName) }),
        description: t('consultations.toast.body', { organization: item.appliedBucketName, reason: item.reason }),
        duration: NOTIFICATION_TOAST_SECONDS,
        placement: 'topRight',
        onClick: () => {
          api.destroy(key);
          void navigate(`/consultations/${encodeURIComponent(item.id)}`);
        },
      });
    }
  }, [poll.data, held, api, t, user, personName, navigate]);

  return holder;
}
