// GET /api/dashboard: the sections the caller may see for a range (@piibs/shared/dashboard, types only).
import type { DashboardAnswer } from '@piibs/shared/dashboard';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { EARLY_DASHBOARD_URL, earlyOr } from '@/lib/early-requests.ts';
import { request } from '@/lib/http.ts';
import type { DateRange } from './range.ts';

export const dashboardQuery = (range: DateRange | null) =>
  queryOptions({
    queryKey: ['dashboard', range?.from ?? '', range?.to ?? ''],
    queryFn: ({ signal }) => {
      const ask = () =>
        request<DashboardAnswer>({
          url: EARLY_DASHBOARD_URL,
          method: 'get',
          params: range ?? undefined,
          signal,
          // Shown on the page (with a retry), not as a notice on top of whatever the user does next.
          inlineErrors: true,
        });
      // A tab opened on the dashboard asked for the default range with its first requests (main.tsx).
      return range === null ? earlyOr(EARLY_DASHBOARD_URL, ask) : ask();
    },
    // The server caches its figures for 30 s; asking again sooner would only get the same answer.
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
