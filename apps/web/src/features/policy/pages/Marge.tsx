import SupplementPage from '@/components/sales/SupplementPage.tsx';

/** 补录资料详情 (marge/:id/:detail): the supplement form of policy :id; detail 'true' is read-only. */
export default function Marge() {
  return <SupplementPage />;
}
