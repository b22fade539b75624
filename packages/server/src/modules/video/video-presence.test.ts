import { describe, expect, it } from 'vitest';
import { VideoPresence, type VideoBus } from './video-presence.js';

/** A bus that hands each published event to the room's listeners at once. */
function fakeBus() {
  const listeners = new Map<string, ((m: { event: unknown }) => void)[]>();
  const bus: VideoBus = {
    subscribe(topic, listener) {
      listeners.set(topic, [...(listeners.get(topic) ?? []), listener]);
      return () =>
        listeners.set(
          topic,
          (listeners.get(topic) ?? []).filter((l) => l !== listener),
        );
    },
  };
  const send = (roomId: string, peerId: string, accountId: string, data: unknown) =>
    (listeners.get(`rtc:${roomId}`) ?? []).forEach((l) =>
      l({ event: { from: { peerId, accountId, name: accountId }, data } }),
    );
  return { bus, send };
}

const media = { audio: true, video: true, screen: false };

describe('VideoPresence', () => {
  it('counts the peers of the video call, not a viewer tab presenting or following', () => {
    const { bus, send } = fakeBus();
    const presence = new VideoPresence(bus, () => 1_000_000);
    expect(presence.peers('r1')).toEqual([]);
    send('r1', 'p1', 'doctor', { kind: 'join', media });
    send('r1', 'p2', 'expert', { kind: 'state', media });
    // the expert's viewer tab presents; the doctor's viewer tab asks for the view
    send('r1', 'v1', 'expert', { kind: 'present', on: true });
    send('r1', 'v2', 'doctor', { kind: 'view-request' });
    expect(
      presence
        .peers('r1')
        .map((p) => p.peerId)
        .sort(),
    ).toEqual(['p1', 'p2']);
    expect(
      presence
        .participants('r1')
        .map((p) => p.accountId)
        .sort(),
    ).toEqual(['doctor', 'expert']);
    send('r1', 'p1', 'doctor', { kind: 'leave' });
    expect(presence.peers('r1').map((p) => p.peerId)).toEqual(['p2']);
  });
});
