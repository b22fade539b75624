import {
  SignalAssembler,
  batchCandidates,
  isPolite,
  splitSignal,
  type IceCandidate,
  type MediaState,
  type VideoSignal,
} from '@yyp/contracts';

/** What a peer connection sends: a signal addressed to its remote peer (the mesh publishes it). */
export type SendSignal = (signal: VideoSignal) => void;

export interface RemoteInfo {
  peerId: string;
  accountId: string;
  name: string;
  media: MediaState;
}

/**
 * One RTCPeerConnection to one remote peer, negotiated with the "perfect negotiation" pattern: of
 * the two, the peer with the smaller id is polite (it rolls back its own offer when offers
 * collide, the impolite one ignores the other's). Its first offer comes from the impolite side
 * (VideoMesh decides), so a pair starts without a collision; renegotiations (an ICE restart) may
 * collide and are resolved the same way. Descriptions go in parts (contracts splitSignal),
 * candidates in batches every 50 ms; all signals of the peer are handled one at a time in order.
 */
export class PeerLink {
  readonly pc: RTCPeerConnection;
  readonly polite: boolean;
  /** the remote side's tracks as they arrive */
  readonly stream: MediaStream;
  info: RemoteInfo;
  seen = Date.now();
  private makingOffer = false;
  private ignoreOffer = false;
  private readonly parts = new SignalAssembler();
  private chain: Promise<void> = Promise.resolve();
  private pending: IceCandidate[] = [];
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private descriptionNo = 0;
  private closed = false;

  constructor(
    selfId: string,
    info: RemoteInfo,
    private readonly local: { audio: MediaStreamTrack | null; video: MediaStreamTrack | null },
    private readonly send: SendSignal,
    config: RTCConfiguration,
    private readonly onChange: () => void,
    Impl: typeof RTCPeerConnection = RTCPeerConnection,
    makeStream: () => MediaStream = () => new MediaStream(),
  ) {
    this.info = info;
    this.polite = isPolite(selfId, info.peerId);
    this.pc = new Impl(config);
    this.stream = makeStream();
    this.pc.onnegotiationneeded = () => void this.offer();
    this.pc.onicecandidate = ({ candidate }) => {
      if (candidate && candidate.candidate) this.queueCandidate(candidate.toJSON() as IceCandidate);
    };
    this.pc.ontrack = ({ track }) => {
      if (!this.stream.getTracks().includes(track)) this.stream.addTrack(track);
      track.onunmute = () => this.onChange();
      this.onChange();
    };
    this.pc.onconnectionstatechange = () => this.onChange();
    this.pc.oniceconnectionstatechange = () => {
      if (this.pc.iceConnectionState === 'failed') this.pc.restartIce();
    };
  }

  /** Starts the pair's first negotiation: this side sends and receives audio and video. */
  start(): void {
    this.pc.addTransceiver(this.local.audio ?? 'audio', { direction: 'sendrecv' });
    this.pc.addTransceiver(this.local.video ?? 'video', { direction: 'sendrecv' });
  }

  /** The state of the link as a tile shows it. */
  get state(): RTCPeerConnectionState {
    return this.pc.connectionState;
  }

  /** Hands a signal from the remote peer to the connection (in order). */
  receive(signal: VideoSignal): void {
    this.seen = Date.now();
    this.chain = this.chain.then(() => this.handle(signal)).catch((err: unknown) => console.warn('video signal', err));
  }

  /** Sends the local track of a kind in place of the current one (mute keeps the track; screen share swaps it). */
  async replaceTrack(kind: 'audio' | 'video', track: MediaStreamTrack | null): Promise<void> {
    for (const t of this.pc.getTransceivers()) {
      if (t.receiver.track.kind === kind && t.direction !== 'stopped') await t.sender.replaceTrack(track);
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.pc.onnegotiationneeded = this.pc.onicecandidate = this.pc.ontrack = null;
    this.pc.close();
  }

  private async offer(): Promise<void> {
    if (this.closed) return;
    try {
      this.makingOffer = true;
      await this.pc.setLocalDescription();
      this.sendDescription();
    } finally {
      this.makingOffer = false;
    }
  }

  private sendDescription(): void {
    const description = this.pc.localDescription;
    if (!description || (description.type !== 'offer' && description.type !== 'answer')) return;
    const parts = splitSignal(description.sdp);
    const id = `${this.info.peerId.slice(0, 8)}-${Date.now().toString(36)}-${++this.descriptionNo}`;
    parts.forEach((sdp, index) =>
      this.send({
        kind: 'description',
        to: this.info.peerId,
        type: description.type as 'offer' | 'answer',
        id,
        index,
        count: parts.length,
        sdp,
      }),
    );
  }

  private async handle(signal: VideoSignal): Promise<void> {
    if (this.closed) return;
    if (signal.kind === 'candidates') {
      for (const candidate of signal.candidates) {
        try {
          await this.pc.addIceCandidate(candidate);
        } catch (err) {
          if (!this.ignoreOffer) throw err;
        }
      }
      return;
    }
    if (signal.kind !== 'description') return;
    const sdp = this.parts.add(signal.id, signal.index, signal.count, signal.sdp);
    if (sdp === null) return;
    const collision = signal.type === 'offer' && (this.makingOffer || this.pc.signalingState !== 'stable');
    this.ignoreOffer = !this.polite && collision;
    if (this.ignoreOffer) return;
    await this.pc.setRemoteDescription({ type: signal.type, sdp });
    if (signal.type !== 'offer') return;
    // the answering side sends its own tracks on the transceivers the offer made
    for (const t of this.pc.getTransceivers()) {
      const kind = t.receiver.track.kind as 'audio' | 'video';
      const track = this.local[kind];
      if (t.direction === 'recvonly' || t.direction === 'inactive') t.direction = 'sendrecv';
      if (track && t.sender.track !== track) await t.sender.replaceTrack(track);
    }
    await this.pc.setLocalDescription();
    this.sendDescription();
  }

  private queueCandidate(candidate: IceCandidate): void {
    this.pending.push(candidate);
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      const batch = this.pending;
      this.pending = [];
      for (const candidates of batchCandidates(batch)) {
        this.send({ kind: 'candidates', to: this.info.peerId, candidates });
      }
    }, 50);
  }

  /** The local tracks to use from now on (the mesh's camera/screen choice). */
  setLocal(local: { audio: MediaStreamTrack | null; video: MediaStreamTrack | null }): void {
    this.local.audio = local.audio;
    this.local.video = local.video;
  }
}
