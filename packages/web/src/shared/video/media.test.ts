import { describe, expect, it } from 'vitest';
import { openLocalMedia } from './media';

/** A fake MediaDevices: which kinds the "browser" gives, refusing any request that asks for another. */
function devices(allowed: { audio: boolean; video: boolean }) {
  const asked: MediaStreamConstraints[] = [];
  return {
    asked,
    getUserMedia: (c: MediaStreamConstraints = {}) => {
      asked.push(c);
      if ((c.audio && !allowed.audio) || (c.video && !allowed.video)) {
        return Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
      }
      return Promise.resolve({ id: JSON.stringify(c) } as unknown as MediaStream);
    },
  };
}

describe('openLocalMedia', () => {
  it('takes camera and microphone together when both are allowed', async () => {
    const d = devices({ audio: true, video: true });
    const got = await openLocalMedia(d);
    expect(got.problem).toBeNull();
    expect(d.asked).toHaveLength(1);
  });

  it('says the microphone is refused and keeps the camera', async () => {
    const got = await openLocalMedia(devices({ audio: false, video: true }));
    expect(got).toMatchObject({ problem: 'micRefused' });
    expect(got.stream).not.toBeNull();
  });

  it('says the camera is refused and keeps the microphone', async () => {
    const got = await openLocalMedia(devices({ audio: true, video: false }));
    expect(got).toMatchObject({ problem: 'cameraRefused' });
    expect(got.stream).not.toBeNull();
  });

  it('joins without media when both are refused, and says so; without mediaDevices, that it cannot', async () => {
    expect(await openLocalMedia(devices({ audio: false, video: false }))).toEqual({
      stream: null,
      problem: 'mediaRefused',
    });
    expect(await openLocalMedia(undefined)).toEqual({ stream: null, problem: 'noMediaSupport' });
  });
});
