import {
  VIDEO_KEEPALIVE_MS,
  VIDEO_MAX_PARTICIPANTS,
  VIDEO_TOKEN_SCHEME,
  isPolite,
  videoEnvelopeSchema,
  videoTopic,
  type MediaState,
  type VideoRoomToken,
  type VideoSignal,
} from '@yyp/contracts';
import { LiveClient, type LiveClientOptions } from '../live';
import { PeerLink, type RemoteInfo } from './peer';

export interface RemotePeerView extends RemoteInfo {
  stream: MediaStream;
  state: RTCPeerConnectionState;
}

export interface VideoMeshOptions {
  room: VideoRoomToken;
  /** the per-room token call (same peer), before the token expires */
  renew: (roomId: string, peerId: string) => Promise<VideoRoomToken>;
  /** the camera and microphone (either may be missing: refused or absent) */
  local: MediaStream | null;
  /** called after every change the screen shows */
  onChange: () => void;
  /** the room can no longer be used (token renewal refused): the message's error */
  onEnded?: (error: unknown) => void;
  /** tests: the live client's and the peer connection's implementations */
  liveOptions?: Partial<LiveClientOptions>;
  RTCPeerConnection?: typeof RTCPeerConnection;
  makeStream?: () => MediaStream;
  iceTransportPolicy?: RTCIceTransportPolicy;
}

/**
 * The consultation's video mesh (issue 25 "Video"): one RTCPeerConnection per remote peer, up to
 * VIDEO_MAX_PARTICIPANTS in all, signalled over the live socket (a LiveClient of its own that
 * authenticates with the room token, scheme 'Room', on topic rtc:<roomId>). On entering (and after
 * every reconnect: the socket's resync) it announces `join`; of each pair the impolite peer
 * (contracts isPolite) makes the first offer, when it hears the other's join or `here`. Media state
 * goes out on every change and every VIDEO_KEEPALIVE_MS; a peer silent for three of those, or that
 * said `leave`, is dropped. The token is renewed (same peer) five minutes before it expires.
 */
export class VideoMesh {
  readonly peers = new Map<string, PeerLink>();
  readonly selfId: string;
  readonly topic: string;
  media: MediaState;
  screen: MediaStream | null = null;
  private room: VideoRoomToken;
  private readonly live: LiveClient;
  private stopLive: (() => void) | null = null;
  private keepalive: ReturnType<typeof setInterval> | null = null;
  private renewTimer: ReturnType<typeof setTimeout> | null = null;
  private left = false;
  /** the last media state heard of each peer (a link made later starts from it) */
  private readonly known = new Map<string, MediaState>();

  constructor(private readonly options: VideoMeshOptions) {
    this.room = options.room;
    this.selfId = options.room.peerId;
    this.topic = videoTopic(options.room.roomId);
    const audio = options.local?.getAudioTracks()[0];
    const video = options.local?.getVideoTracks()[0];
    this.media = { audio: !!audio?.enabled, video: !!video?.enabled, screen: false };
    this.live = new LiveClient({
      auth: () => ({ token: this.room.token, scheme: VIDEO_TOKEN_SCHEME }),
      ...options.liveOptions,
    });
  }

  /** Connects and announces this peer. */
  join(): void {
    this.stopLive = this.live.subscribe(this.topic, {
      onEvent: (event) => this.onEvent(event),
      // first confirmation, and after every gap: the others may have rebuilt their side, so start over
      onResync: () => this.rejoin(),
      onRefused: () => this.options.onEnded?.(new Error('refused')),
    });
    this.keepalive = setInterval(() => this.tick(), VIDEO_KEEPALIVE_MS);
    this.scheduleRenew();
  }

  /** Leaves the room: says so, closes every connection and the socket, stops the local tracks. */
  leave(): void {
    if (this.left) return;
    this.left = true;
    this.publish({ kind: 'leave' });
    for (const peer of this.peers.values()) peer.close();
    this.peers.clear();
    if (this.keepalive) clearInterval(this.keepalive);
    if (this.renewTimer) clearTimeout(this.renewTimer);
    this.stopLive?.();
    this.live.close();
    for (const track of this.options.local?.getTracks() ?? []) track.stop();
    for (const track of this.screen?.getTracks() ?? []) track.stop();
    this.options.onChange();
  }

  get remotes(): RemotePeerView[] {
    return [...this.peers.values()].map((p) => ({ ...p.info, stream: p.stream, state: p.state }));
  }

  /** this participant's name as the others see it */
  get selfName(): string {
    return this.room.name;
  }

  get liveStatus() {
    return this.live.status;
  }

  /** Microphone on or off (the track stays, muted). */
  setAudio(on: boolean): void {
    for (const track of this.options.local?.getAudioTracks() ?? []) track.enabled = on;
    this.setMedia({ ...this.media, audio: on && !!this.options.local?.getAudioTracks().length });
  }

  /** Camera on or off (black frames while off; a shared screen is not affected). */
  setVideo(on: boolean): void {
    for (const track of this.options.local?.getVideoTracks() ?? []) track.enabled = on;
    this.setMedia({ ...this.media, video: on && !!this.options.local?.getVideoTracks().length });
  }

  /** Shares a screen (getDisplayMedia's stream) in place of the camera, or back to the camera with null. */
  async setScreen(stream: MediaStream | null): Promise<void> {
    for (const track of this.screen?.getTracks() ?? []) track.stop();
    this.screen = stream;
    const track = stream?.getVideoTracks()[0] ?? null;
    if (track) track.onended = () => void this.setScreen(null);
    const video = track ?? this.options.local?.getVideoTracks()[0] ?? null;
    for (const peer of this.peers.values()) {
      peer.setLocal({ audio: this.localAudio(), video });
      await peer.replaceTrack('video', video);
    }
    this.setMedia({ ...this.media, screen: !!track });
  }

  private localAudio(): MediaStreamTrack | null {
    return this.options.local?.getAudioTracks()[0] ?? null;
  }

  private localVideo(): MediaStreamTrack | null {
    return this.screen?.getVideoTracks()[0] ?? this.options.local?.getVideoTracks()[0] ?? null;
  }

  private setMedia(media: MediaState): void {
    this.media = media;
    this.publish({ kind: 'state', media });
    this.options.onChange();
  }

  private publish(signal: VideoSignal): void {
    this.live.publish(this.topic, signal);
  }

  private rejoin(): void {
    if (this.left) return;
    for (const peer of this.peers.values()) peer.close();
    this.peers.clear();
    this.publish({ kind: 'join', media: this.media });
    this.options.onChange();
  }

  private tick(): void {
    this.publish({ kind: 'state', media: this.media });
    const cutoff = Date.now() - 3 * VIDEO_KEEPALIVE_MS;
    for (const [id, peer] of this.peers) {
      if (peer.seen < cutoff) {
        peer.close();
        this.peers.delete(id);
        this.options.onChange();
      }
    }
  }

  private onEvent(event: unknown): void {
    if (this.left) return;
    const parsed = videoEnvelopeSchema.safeParse(event);
    if (!parsed.success) return;
    const { from, data } = parsed.data;
    if (from.peerId === this.selfId) return;
    if ('to' in data && data.to !== this.selfId) return;
    const info: RemoteInfo = {
      peerId: from.peerId,
      accountId: from.accountId,
      name: from.name,
      media: this.known.get(from.peerId) ?? { audio: false, video: false, screen: false },
    };
    if ('media' in data) this.known.set(from.peerId, data.media);
    else if (data.kind === 'leave') this.known.delete(from.peerId);
    switch (data.kind) {
      case 'join': {
        // a peer that joins again (its reconnect) starts over
        this.drop(from.peerId);
        info.media = data.media;
        // the newcomer learns this peer's media either way (the impolite side's offer carries none)
        this.publish({ kind: 'here', to: from.peerId, media: this.media });
        if (!isPolite(this.selfId, from.peerId)) this.link(info, true);
        return;
      }
      case 'here':
        info.media = data.media;
        if (!this.peers.has(from.peerId) && !isPolite(this.selfId, from.peerId)) this.link(info, true);
        else this.touch(from.peerId, data.media);
        return;
      case 'state':
        this.touch(from.peerId, data.media);
        return;
      case 'leave':
        this.drop(from.peerId);
        return;
      case 'description':
      case 'candidates': {
        let peer = this.peers.get(from.peerId);
        if (!peer) {
          if (data.kind !== 'description' || data.type !== 'offer') return;
          peer = this.link(info, false);
        }
        if (!peer || peer.info.accountId !== from.accountId) return;
        peer.receive(data);
        return;
      }
    }
  }

  private link(info: RemoteInfo, offer: boolean): PeerLink | undefined {
    if (this.peers.size >= VIDEO_MAX_PARTICIPANTS - 1) return undefined;
    const peer = new PeerLink(
      this.selfId,
      info,
      { audio: this.localAudio(), video: this.localVideo() },
      (signal) => this.publish(signal),
      { iceServers: this.room.iceServers, iceTransportPolicy: this.options.iceTransportPolicy ?? 'all' },
      () => this.options.onChange(),
      this.options.RTCPeerConnection,
      this.options.makeStream,
    );
    this.peers.set(info.peerId, peer);
    if (offer) peer.start();
    this.options.onChange();
    return peer;
  }

  private touch(peerId: string, media: MediaState): void {
    const peer = this.peers.get(peerId);
    if (!peer) return;
    peer.seen = Date.now();
    peer.info = { ...peer.info, media };
    this.options.onChange();
  }

  private drop(peerId: string): void {
    const peer = this.peers.get(peerId);
    if (!peer) return;
    peer.close();
    this.peers.delete(peerId);
    this.options.onChange();
  }

  private scheduleRenew(): void {
    const due = Date.parse(this.room.expiresAt) - 5 * 60_000 - Date.now();
    this.renewTimer = setTimeout(
      () => {
        this.options
          .renew(this.room.roomId, this.selfId)
          .then((room) => {
            this.room = room;
            this.scheduleRenew();
          })
          .catch((err: unknown) => this.options.onEnded?.(err));
      },
      Math.max(10_000, due),
    );
  }
}
