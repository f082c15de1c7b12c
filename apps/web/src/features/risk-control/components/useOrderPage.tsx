// The order of an order page: route param :seqNo (the prevention record) and `?order=<number or id>`; answers
// the loaded detail, or the page to show instead (loading, missing reference, 404 / refusal).
import type { ServiceOrderDetail } from '@piibs/shared/risk-control';
import { useQuery } from '@tanstack/react-query';
import { Button, Result, Spin } from 'antd';
import type { ReactNode } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { serverError } from '@/components/crud/resource.ts';
import { orderQuery, SERVICE_LIST_PATH } from '../api.ts';
import { RISK_TEXTS as T } from '../texts.ts';

export function useOrderPage():
  | { order: ServiceOrderDetail; seqNo: string; ref: string; fallback: null; refetch: () => Promise<unknown> }
  | { order: null; seqNo: string; ref: string; fallback: ReactNode; refetch: () => Promise<unknown> } {
  const { seqNo = '' } = useParams();
  const [search] = useSearchParams();
  const ref = search.get('order')?.trim() ?? '';
  const navigate = useNavigate();
  const query = useQuery({ ...orderQuery(ref), enabled: ref !== '' });
  const refetch = () => query.refetch();
  const back = <Button onClick={() => navigate(SERVICE_LIST_PATH)}>{T.toList}</Button>;
  if (!ref)
    return {
      order: null,
      seqNo,
      ref,
      refetch,
      fallback: <Result status="warning" title={T.noOrderRef} extra={back} />,
    };
  if (query.isPending)
    return {
      order: null,
      seqNo,
      ref,
      refetch,
      fallback: (
        <div style={{ padding: 48, textAlign: 'center' }}>
          <Spin />
        </div>
      ),
    };
  if (!query.data) {
    const refusal = query.error ? serverError(query.error) : null;
    return {
      order: null,
      seqNo,
      ref,
      refetch,
      fallback: (
        <Result
          status="404"
          title={refusal && refusal.status !== 404 ? refusal.message : T.orderNotFound}
          extra={back}
        />
      ),
    };
  }
  return { order: query.data, seqNo, ref, refetch, fallback: null };
}
