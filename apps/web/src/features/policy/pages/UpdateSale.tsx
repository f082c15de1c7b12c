import { SalesList } from '@/components/sales/SalesList.tsx';

/** 修改销售信息 (marge/updateSale): supplemented policies; 修改销售人员 asks for the new one and a reason. */
export default function UpdateSale() {
  return <SalesList mode="updateSale" />;
}
