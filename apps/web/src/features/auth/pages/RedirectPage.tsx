import { useEffect } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { HOME_PATH } from '@/lib/paths.ts';
import { safeRedirect } from '../safe-redirect.ts';

/**
 * /piibs/redirect/* — the tags bar's "refresh": going through this route remounts the page, which then
 * comes back (replacing this entry) at the path after /redirect, with the same query. Only in-app paths.
 */
export default function RedirectPage() {
  const { '*': rest = '' } = useParams();
  const { search, hash } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    navigate(safeRedirect(`/${rest}${search}${hash}`) ?? HOME_PATH, { replace: true });
  }, [rest, search, hash, navigate]);
  return null;
}
