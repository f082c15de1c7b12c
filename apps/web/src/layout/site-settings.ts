import type { SiteSettings } from '@piibs/shared/site';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '@/lib/http.ts';

const KEY = ['site-settings'] as const;

/** The footer text and filing numbers the administrator set (GET /api/settings/site, public). */
export function useSiteSettings() {
  return useQuery({
    queryKey: KEY,
    queryFn: () => request<SiteSettings>({ url: 'api/settings/site', method: 'get' }),
    staleTime: 10 * 60_000,
  });
}

export function useSaveSiteSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (data: SiteSettings) =>
      request<SiteSettings>({ url: 'api/settings/site', method: 'post', data }),
    onSuccess: (saved) => client.setQueryData(KEY, saved),
  });
}
