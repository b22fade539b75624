import {
  AudioMutedOutlined,
  AudioOutlined,
  DesktopOutlined,
  LogoutOutlined,
  VideoCameraAddOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import { Alert, Button, Card, Space, Tag, Tooltip, Typography } from 'antd';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/errorMessage';
import { renewVideoToken, startVideoMeeting } from '../../api/video';
import { openLocalMedia, webRtcSupported, type MediaProblem } from './media';
import { VideoMesh } from './mesh';
import { VideoTile } from './VideoTile';
import './video.css';

type Phase = 'idle' | 'joining' | 'in' | 'ended';

/**
 * The consultation's video room (issue 25 "Video"): Join asks video-meetings/start, opens the
 * camera and microphone (saying plainly which the browser refused) and enters the mesh; then the
 * local preview and a tile per participant with its name and state, and the controls (microphone,
 * camera, screen sharing, leave) with Alt+M, Alt+V, Alt+S, Alt+L. Rendered by the consultation's
 * detail page when its `can` includes 'video'.
 */
export function VideoRoom({ consultationId }: { consultationId: string }) {
  const { t } = useTranslation();
  const [phase, setPhase] = useState<Phase>('idle');
  const [error, setError] = useState<string | null>(null);
  const [problem, setProblem] = useState<MediaProblem>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  const mesh = useRef<VideoMesh | null>(null);
  const [local, setLocal] = useState<MediaStream | null>(null);

  useEffect(() => () => mesh.current?.leave(), []);

  const join = useCallback(async () => {
    setError(null);
    setNotice(null);
    if (!webRtcSupported()) {
      setProblem('noMediaSupport');
      return;
    }
    setPhase('joining');
    try {
      const room = await startVideoMeeting(consultationId);
      const media = await openLocalMedia();
      setProblem(media.problem);
      setLocal(media.stream);
      const m = new VideoMesh({
        room,
        local: media.stream,
        renew: (roomId, peerId) => renewVideoToken(roomId, peerId),
        onChange: redraw,
        onEnded: (err) => {
          setError(errorMessage(t, err));
          m.leave();
          setPhase('ended');
        },
      });
      mesh.current = m;
      m.join();
      setPhase('in');
    } catch (err) {
      setError(errorMessage(t, err));
      setPhase('idle');
    }
  }, [consultationId, t]);

  const leave = useCallback(() => {
    mesh.current?.leave();
    mesh.current = null;
    setLocal(null);
    setPhase('ended');
  }, []);

  const toggleAudio = useCallback(() => mesh.current?.setAudio(!mesh.current.media.audio), []);
  const toggleVideo = useCallback(() => mesh.current?.setVideo(!mesh.current.media.video), []);
  const toggleScreen = useCallback(async () => {
    const m = mesh.current;
    if (!m) return;
    if (m.screen) return m.setScreen(null);
    try {
      const screen = await navigator.mediaDevices.getDisplayMedia({ video: true, audio: false });
      await m.setScreen(screen);
    } catch {
      setNotice(t('video.screenRefused'));
    }
  }, [t]);

  useEffect(() => {
    if (phase !== 'in') return undefined;
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey) return;
      const action = { KeyM: toggleAudio, KeyV: toggleVideo, KeyS: toggleScreen, KeyL: leave }[e.code];
      if (!action) return;
      e.preventDefault();
      void action();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [phase, toggleAudio, toggleVideo, toggleScreen, leave]);

  const m = mesh.current;
  const remotes = phase === 'in' && m ? m.remotes : [];
  return (
    <Card
      className="video-room"
      title={
        <Space>
          <VideoCameraOutlined />
          {t('video.title')}
          {phase === 'in' && <Tag>{t('video.inRoom', { count: remotes.length + 1 })}</Tag>}
        </Space>
      }
      extra={
        phase === 'in' && m ? (
          <Space wrap>
            <Tooltip title="Alt+M">
              <Button
                icon={m.media.audio ? <AudioOutlined /> : <AudioMutedOutlined />}
                onClick={toggleAudio}
                disabled={!local?.getAudioTracks().length}
                aria-pressed={!m.media.audio}
              >
                {m.media.audio ? t('video.mute') : t('video.unmute')}
              </Button>
            </Tooltip>
            <Tooltip title="Alt+V">
              <Button
                icon={<VideoCameraAddOutlined />}
                onClick={toggleVideo}
                disabled={!local?.getVideoTracks().length}
                aria-pressed={!m.media.video}
              >
                {m.media.video ? t('video.cameraOff') : t('video.cameraOn')}
              </Button>
            </Tooltip>
            <Tooltip title="Alt+S">
              <Button icon={<DesktopOutlined />} onClick={() => void toggleScreen()} aria-pressed={m.media.screen}>
                {m.media.screen ? t('video.stopShare') : t('video.share')}
              </Button>
            </Tooltip>
            <Tooltip title="Alt+L">
              <Button danger icon={<LogoutOutlined />} onClick={leave}>
                {t('video.leave')}
              </Button>
            </Tooltip>
          </Space>
        ) : (
          <Button
            type="primary"
            icon={<VideoCameraOutlined />}
            loading={phase === 'joining'}
            onClick={() => void join()}
          >
            {phase === 'joining' ? t('video.joining') : t('video.join')}
          </Button>
        )
      }
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        {error && <Alert type="error" showIcon message={error} />}
        {problem && <Alert type="warning" showIcon message={t(`video.${problem}`)} />}
        {notice && <Alert type="info" showIcon closable message={notice} onClose={() => setNotice(null)} />}
        {phase === 'ended' && !error && <Typography.Text type="secondary">{t('video.ended')}</Typography.Text>}
        {phase === 'in' && m && (
          <>
            {m.liveStatus === 'waiting' && <Alert type="warning" showIcon message={t('video.reconnecting')} />}
            <div className="video-grid">
              <VideoTile self name={t('video.you', { name: m.selfName })} stream={m.screen ?? local} media={m.media} />
              {remotes.map((r) => (
                <VideoTile
                  key={r.peerId}
                  peerId={r.peerId}
                  name={r.name}
                  stream={r.stream}
                  media={r.media}
                  state={r.state}
                />
              ))}
            </div>
            {remotes.length === 0 && <Typography.Text type="secondary">{t('video.alone')}</Typography.Text>}
            <Typography.Text type="secondary" className="video-shortcuts">
              {t('video.shortcuts')}
            </Typography.Text>
          </>
        )}
      </Space>
    </Card>
  );
}
