// Keeps the screen on while a barcode is on it, so it does not dim in the queue at the gate
// (the Screen Wake Lock API, where the browser has it): asked for when the barcode shows and
// whenever the page becomes visible again, released when the page is hidden (the browser does
// so too) and when the barcode goes. A browser without the API, or one that refuses (a battery
// saver), shows the page as before. Written here: the API is one request and one listener, and
// the wrappers on npm would add a dependency for those lines.
import { useEffect } from 'react';

export function useScreenWakeLock(active: boolean) {
  useEffect(() => {
    if (!active || !('wakeLock' in navigator)) return;
    let lock: WakeLockSentinel | null = null;
    let ended = false;
    const release = () => {
      void lock?.release().catch(() => undefined);
      lock = null;
    };
    const request = () => {
      if (document.visibilityState !== 'visible' || lock) return;
      navigator.wakeLock.request('screen').then(
        (sentinel) => {
          if (ended || document.visibilityState !== 'visible') void sentinel.release().catch(() => undefined);
          else lock = sentinel;
        },
        () => undefined,
      );
    };
    const onVisibilityChange = () => (document.visibilityState === 'visible' ? request() : release());
    request();
    document.addEventListener('visibilitychange', onVisibilityChange);
    return () => {
      ended = true;
      document.removeEventListener('visibilitychange', onVisibilityChange);
      release();
    };
  }, [active]);
}
