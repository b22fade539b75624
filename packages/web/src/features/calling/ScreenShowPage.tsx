import { SoundOutlined } from '@ant-design/icons';
import type { ScreenPatient, ScreenQueue } from '@yyp/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import { SCREEN_AUTH_SCHEME } from '@yyp/contracts';
import { clockText } from './callingView';
import { forgetScreenToken, takeScreenToken } from './screenToken';
import { useAnnouncer } from './useAnnouncer';
import { useScreenLive } from './useQueueLive';
import { useClock, useScreenQueue, type ScreenStatus } from './useScreenQueue';
import './screen.css';

/**
 * /calling/{bucketId}/screen-show (spec 000 §2; issue 23): the waiting room's TV. No login: a
 * screen token opens it (`?token=` once, then kept in this browser). It shows the current call of
 * each room in large type, the next patients of each queue and the missed list, names masked, with
 * the organization's name and a clock; it says each new call aloud once sound is enabled by a click.
 */
export function ScreenShowPage() {
  const { t } = useTranslation();
  const { bucketId = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const [taken] = useState(() => takeScreenToken(bucketId, { search: location.search, storage: localStorage }));
  const token = taken.token;
  useEffect(() => {
    if (location.search !== taken.cleanSearch) void navigate({ search: taken.cleanSearch }, { replace: true });
    // once, on opening: the token leaves the address bar
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const [soundOn, setSoundOn] = useState(false);
  const announcer = useAnnouncer(() => (token ? `${SCREEN_AUTH_SCHEME} ${token}` : null));
  const live = useScreenLive(bucketId, token);
  const { query, status, refused } = useScreenQueue(bucketId, token, live.connected, (text) => {
    if (soundOn) announcer.say(text);
  });
  useEffect(() => {
    if (refused) forgetScreenToken(bucketId, localStorage);
  }, [refused, bucketId]);

  if (!token || refused) {
    return (
      <div className="yyp-screen yyp-screen--message" role="alert">
        <p>{t(token ? 'callingScreen.tokenRefused' : 'callingScreen.tokenMissing')}</p>
      </div>
    );
  }

  return (
    <div className="yyp-screen">
      <ScreenHeader name={query.data?.bucketName ?? ''} status={status} />
      {query.data ? <ScreenBoard data={query.data} /> : <div className="yyp-screen__board" />}
      {!soundOn && (
        <button type="button" className="yyp-screen__sound" onClick={() => setSoundOn(true)}>
          <SoundOutlined /> {t('callingScreen.enableSound')}
        </button>
      )}
    </div>
  );
}

function ScreenHeader({ name, status }: { name: string; status: ScreenStatus }) {
  const { t } = useTranslation();
  const clock = clockText(useClock());
  return (
    <header className="yyp-screen__header">
      <div className="yyp-screen__org">
        <span className="yyp-screen__org-name">{name}</span>
        <span className="yyp-screen__title">{t('callingScreen.title')}</span>
      </div>
      <div className="yyp-screen__clock">
        <span className="yyp-screen__time">{clock.time}</span>
        <span className="yyp-screen__date">{clock.date}</span>
        <span className={`yyp-screen__status yyp-screen__status--${status}`} role="status">
          <i aria-hidden="true" /> {t(`callingScreen.status.${status}`)}
        </span>
      </div>
    </header>
  );
}

function ScreenBoard({ data }: { data: ScreenQueue }) {
  const { t } = useTranslation();
  const [current, ...others] = data.calls;
  return (
    <main className="yyp-screen__board">
      <section className="yyp-screen__now" aria-label={t('callingScreen.now')}>
        <h2>{t('callingScreen.now')}</h2>
        {current ? <CallLine call={current} main /> : <p className="yyp-screen__idle">{t('callingScreen.noCall')}</p>}
        <ul className="yyp-screen__others">
          {others.map((call) => (
            <li key={call.queueExamId}>
              <CallLine call={call} />
            </li>
          ))}
        </ul>
      </section>
      <section className="yyp-screen__side">
        <div className="yyp-screen__next" aria-label={t('callingScreen.next')}>
          <h2>{t('callingScreen.next')}</h2>
          {data.queues.map((queue) => (
            <div key={queue.queueTypeId} className="yyp-screen__queue">
              <span className="yyp-screen__queue-name">{queue.roomName || queue.displayName}</span>
              {typeof queue.predictedWaitMinutes === 'number' && (
                <span className="yyp-screen__wait">{t('callingScreen.wait', { n: queue.predictedWaitMinutes })}</span>
              )}
              <PatientChips patients={queue.next} />
            </div>
          ))}
        </div>
        <div className="yyp-screen__missed" aria-label={t('callingScreen.missed')}>
          <h2>{t('callingScreen.missed')}</h2>
          <PatientChips patients={data.missed} missed />
        </div>
      </section>
    </main>
  );
}

/** "4 赵*  5 钱*": the next or missed patients by number and masked name. */
function PatientChips({ patients, missed = false }: { patients: ScreenPatient[]; missed?: boolean }) {
  const { t } = useTranslation();
  return (
    <span className="yyp-screen__queue-list">
      {patients.length === 0
        ? t('callingScreen.noOne')
        : patients.map((p) => (
            <span
              key={p.queueExamId}
              className={missed ? 'yyp-screen__chip yyp-screen__chip--missed' : 'yyp-screen__chip'}
            >
              {p.queueNo} {p.name}
            </span>
          ))}
    </span>
  );
}

/** "3 号 王*东 → CT 1" */
function CallLine({ call, main = false }: { call: ScreenPatient; main?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className={main ? 'yyp-screen__call yyp-screen__call--main' : 'yyp-screen__call'}>
      <span className="yyp-screen__no">{t('callingScreen.number', { queueNo: call.queueNo })}</span>
      <span className="yyp-screen__name">{call.name}</span>
      <span className="yyp-screen__where">
        <span className="yyp-screen__arrow" aria-label={t('callingScreen.to')}>
          →
        </span>{' '}
        <span className="yyp-screen__room">{call.room}</span>
      </span>
    </div>
  );
}
