import { SalesList } from '@/components/sales/SalesList.tsx';

/** 农民工补录销售信息 (marge/NBNMG): the same list; 补录 opens marge/:id/false?variant=NBNMG. */
export default function MargeNbnmg() {
  return <SalesList mode="supplement" variant="NBNMG" />;
}
