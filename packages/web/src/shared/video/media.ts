/** Why the local media are not all there: the sentence's key in i18n video.* (null: camera and microphone). */
export type MediaProblem = 'mediaRefused' | 'cameraRefused' | 'micRefused' | 'noMediaSupport' | null;

/**
 * The camera and the microphone for a call: both if the browser gives them; else the one it gives
 * (the other refused or missing); else none, with the reason. A participant without media still
 * joins and receives the others.
 */
export async function openLocalMedia(
  devices: Pick<MediaDevices, 'getUserMedia'> | undefined = globalThis.navigator?.mediaDevices,
): Promise<{ stream: MediaStream | null; problem: MediaProblem }> {
  if (!devices?.getUserMedia) return { stream: null, problem: 'noMediaSupport' };
  const attempts: [MediaStreamConstraints, MediaProblem][] = [
    [{ audio: true, video: { width: { ideal: 640 }, height: { ideal: 480 } } }, null],
    [{ audio: false, video: true }, 'micRefused'],
    [{ audio: true, video: false }, 'cameraRefused'],
  ];
  for (const [constraints, problem] of attempts) {
    try {
      return { stream: await devices.getUserMedia(constraints), problem };
    } catch {
      // the next, smaller request
    }
  }
  return { stream: null, problem: 'mediaRefused' };
}

/** Whether this browser can take part at all (WebRTC). */
export function webRtcSupported(): boolean {
  return typeof globalThis.RTCPeerConnection === 'function';
}
