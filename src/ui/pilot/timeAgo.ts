import { useEffect, useState } from 'react';

/**
 * How long ago `at` (epoch ms) was, in words of the language: "12 seconds ago", "5 minutes
 * ago", "now". A time in the future (the server's clock ahead of this one) reads as now.
 */
export function timeAgo(at: number, now: number, language: string): string {
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 60) return format.format(-seconds, 'second');
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return format.format(-minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return format.format(-hours, 'hour');
  return format.format(-Math.floor(hours / 24), 'day');
}

/**
 * The current time, renewed every `everyMs` while `active` (for "… ago" and "in …" labels).
 * Read again in the render where it turns active (React's state adjusted while rendering: the
 * render with the old time is never committed), so a wait that has just begun ("in 5 minutes")
 * never shows against the time the hook last read, maybe minutes ago ("in 6 minutes").
 */
export function useNow(everyMs: number, active = true): number {
  const [now, setNow] = useState(() => Date.now());
  const [wasActive, setWasActive] = useState(active);
  if (active !== wasActive) {
    setWasActive(active);
    if (active) setNow(Date.now());
  }
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs, active]);
  return now;
}

/**
 * How long until `at` (epoch ms), in words of the language: "in 45 seconds", "in 6 minutes"
 * (rounded up: the wait is not over before). A time already past reads as now.
 */
export function timeUntil(at: number, now: number, language: string): string {
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  const seconds = Math.max(0, Math.ceil((at - now) / 1000));
  if (seconds < 60) return format.format(seconds, 'second');
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return format.format(minutes, 'minute');
  return format.format(Math.ceil(minutes / 60), 'hour');
}
