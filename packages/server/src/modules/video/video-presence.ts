import {
  VIDEO_KEEPALIVE_MS,
  videoEnvelopeSchema,
  videoTopic,
  type VideoParticipant,
  type VideoSender,
} from '@yyp/contracts';

/** The shared viewing's signals: their senders take no place in the video call. */
const VIEWING_KINDS: ReadonlySet<string> = new Set(['present', 'view', 'view-request']);

/** What presence needs of the live bus. */
export interface VideoBus {
  subscribe(topic: string, listener: (message: { event: unknown }) => void): () => void;
}

/**
 * Who is in each room now, for telemed-video and the room's size limit. Every instance follows the
 * rooms it was asked about on the live bus (so a peer on another instance counts too): a peer is in
 * from its join (or its answer `here`, or any media state) until its leave, or until it has been
 * silent for three keep-alives (a closed tab). A room nobody asked about for an hour is dropped.
 */
export class VideoPresence {
  private readonly rooms = new Map<
    string,
    { stop: () => void; peers: Map<string, VideoSender & { seen: number }>; asked: number }
  >();

  constructor(
    private readonly bus: VideoBus | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** Starts following the room (if not yet) and answers its peers heard recently. */
  peers(roomId: string): (VideoSender & { seen: number })[] {
    const room = this.follow(roomId);
    room.asked = this.now();
    const cutoff = this.now() - 3 * VIDEO_KEEPALIVE_MS;
    for (const [id, peer] of room.peers) if (peer.seen < cutoff) room.peers.delete(id);
    this.forgetIdle();
    return [...room.peers.values()];
  }

  /** The accounts in the room, once each. */
  participants(roomId: string): VideoParticipant[] {
    const seen = new Map<string, VideoParticipant>();
    for (const p of this.peers(roomId)) {
      if (!seen.has(p.accountId)) seen.set(p.accountId, { accountId: p.accountId, name: p.name });
    }
    return [...seen.values()];
  }

  close(): void {
    for (const room of this.rooms.values()) room.stop();
    this.rooms.clear();
  }

  private follow(roomId: string) {
    let room = this.rooms.get(roomId);
    if (room) return room;
    const peers = new Map<string, VideoSender & { seen: number }>();
    const stop = this.bus?.subscribe(videoTopic(roomId), ({ event }) => {
      const parsed = videoEnvelopeSchema.safeParse(event);
      if (!parsed.success) return;
      const { from, data } = parsed.data;
      if (data.kind === 'leave') peers.delete(from.peerId);
      // a viewer tab presenting or following (shared viewing) is in the room but not in the video
      else if (!VIEWING_KINDS.has(data.kind)) peers.set(from.peerId, { ...from, seen: this.now() });
    });
    room = { stop: stop ?? (() => undefined), peers, asked: this.now() };
    this.rooms.set(roomId, room);
    return room;
  }

  private forgetIdle(): void {
    const cutoff = this.now() - 3_600_000;
    for (const [id, room] of this.rooms) {
      if (room.asked < cutoff && room.peers.size === 0) {
        room.stop();
        this.rooms.delete(id);
      }
    }
  }
}
