import type { CaptchaResult } from '@piibs/shared/auth';
import { useCallback, useEffect, useRef, useState } from 'react';
import { request } from '@/lib/http.ts';

/**
 * GET /api/auth/code, fetched on mount and on `refetch`. A plain hook rather than react-query: the login
 * page's first load carries no query client. Every answer is single-use, so nothing is cached, and only the
 * latest request's answer is shown.
 */
export function useCaptcha(): { data: CaptchaResult | undefined; refetch: () => Promise<void> } {
  const [data, setData] = useState<CaptchaResult | undefined>(undefined);
  const latest = useRef(0);

  const refetch = useCallback(async () => {
    const id = ++latest.current;
    try {
      const answer = await request<CaptchaResult>({ url: 'api/auth/code', method: 'get' });
      if (id === latest.current) setData(answer);
    } catch {
      // The HTTP client has told the user; the button still offers a retry.
    }
  }, []);

  useEffect(() => {
    void refetch();
    return () => {
      // Answers arriving after unmount are dropped.
      latest.current++;
    };
  }, [refetch]);

  return { data, refetch };
}
