import { AudioMutedOutlined, DesktopOutlined, VideoCameraOutlined } from '@ant-design/icons';
import type { MediaState } from '@yyp/contracts';
import { Tooltip } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

/** One participant's tile: the video (the local preview muted), the name and what is off. */
export function VideoTile({
  name,
  stream,
  media,
  state,
  self = false,
  peerId,
}: {
  name: string;
  stream: MediaStream | null;
  media: MediaState;
  state?: RTCPeerConnectionState;
  self?: boolean;
  peerId?: string;
}) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  // a remote stream gains its tracks after the tile first renders: attach again when they come
  const tracks = stream?.getTracks().length ?? 0;
  useEffect(() => {
    const el = video.current;
    if (!el) return;
    if (el.srcObject !== stream) el.srcObject = stream;
    if (stream && tracks > 0) void el.play?.()?.catch(() => undefined);
  }, [stream, tracks]);
  const connecting = !self && state !== undefined && state !== 'connected';
  return (
    <figure className={`video-tile${self ? ' video-tile-self' : ''}`} data-peer={peerId} aria-label={name}>
      <video ref={video} autoPlay playsInline muted={self} className={self ? 'video-self' : 'video-remote'} />
      <figcaption>
        <span className="video-name">{name}</span>
        {!media.audio && (
          <Tooltip title={t('video.micOff')}>
            <AudioMutedOutlined aria-label={t('video.micOff')} />
          </Tooltip>
        )}
        {!media.video && !media.screen && (
          <Tooltip title={t('video.camOff')}>
            <VideoCameraOutlined aria-label={t('video.camOff')} style={{ opacity: 0.5 }} />
          </Tooltip>
        )}
        {media.screen && (
          <Tooltip title={t('video.sharing')}>
            <DesktopOutlined aria-label={t('video.sharing')} />
          </Tooltip>
        )}
        {connecting && <span className="video-state">{t('video.connecting')}</span>}
      </figcaption>
    </figure>
  );
}
