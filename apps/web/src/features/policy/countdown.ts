// The live countdown of a payment order's expiry.
import { useEffect, useState } from 'react';

/** The current time, re-read every `intervalMs` while `active`. */
export function useNow(active: boolean, intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs]);
  return now;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** 90_061_000 → '1 天 01:01:01'; 3_599_000 → '00:59:59'; past → '00:00:00'. */
export function remainingText(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const clock = `${pad(hours)}:${pad(minutes)}:${pad(seconds)}`;
  return days > 0 ? `${days} 天 ${clock}` : clock;
}
