import { SalesList } from '@/components/sales/SalesList.tsx';

/** 补录资料 (marge/xxt): issued policies with their supplement status; 补录 opens marge/:id/false. */
export default function MargeXxt() {
  return <SalesList mode="supplement" />;
}
