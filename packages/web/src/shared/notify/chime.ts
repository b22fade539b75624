/**
 * A short three-tone chime through the Web Audio API (no file to load) for a notification toast;
 * silent where there is no audio or the browser refuses it before a gesture.
 */
export function playNotificationChime(): void {
  const Context = typeof window === 'undefined' ? undefined : window.AudioContext;
  if (!Context) return;
  try {
    const ctx = new Context();
    const start = ctx.currentTime;
    [660, 880, 990].forEach((frequency, i) => {
      const oscillator = ctx.createOscillator();
      const gain = ctx.createGain();
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.12, start + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.001, start + i * 0.12 + 0.11);
      oscillator.connect(gain);
      gain.connect(ctx.destination);
      oscillator.start(start + i * 0.12);
      oscillator.stop(start + i * 0.12 + 0.12);
    });
    setTimeout(() => void ctx.close(), 1000);
  } catch {
    // the toast still shows
  }
}
