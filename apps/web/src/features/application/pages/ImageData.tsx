// 影像资料 (/piibs/insured/ImageData/:id/:businessCode): the scans of one business record by document type.
// `:id` is the record's id, `:businessCode` its kind ('application' an application, 'customer' a customer).
// The title names the record by its business number (投保单号, the customer's name) as the list answers it.
// Upload and delete are offered while the server says the record is editable by the caller.
import {
  isMaterialBusinessType,
  MATERIAL_BUSINESS_LABELS,
  type MaterialBusinessType,
} from '@piibs/shared/material';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Result } from 'antd';
import { useNavigate, useParams } from 'react-router';
import { materialsQuery } from '@/components/materials/api.ts';
import { MaterialsPanel } from '@/components/materials/MaterialsPanel.tsx';

export const IMAGE_DATA_TEXTS = Object.freeze({
  title: '影像资料',
  back: '返回',
  badRoute: '无法识别的业务类型或记录编号',
});

export default function ImageData() {
  const params = useParams();
  const navigate = useNavigate();
  const id = Number(params.id);
  const code = params.businessCode;
  const back = <Button onClick={() => navigate(-1)}>{IMAGE_DATA_TEXTS.back}</Button>;

  if (!isMaterialBusinessType(code) || !Number.isInteger(id) || id <= 0) {
    return <Result status="warning" title={IMAGE_DATA_TEXTS.badRoute} extra={back} />;
  }
  return (
    <div style={{ padding: 16 }}>
      <Card variant="borderless" title={<Title businessType={code} businessId={id} />} extra={back}>
        <MaterialsPanel businessType={code} businessId={id} editable />
      </Card>
    </div>
  );
}

/** 影像资料（投保单 AZX2026000001）once the list has answered; 影像资料 until then (never the id). */
function Title({ businessType, businessId }: { businessType: MaterialBusinessType; businessId: number }) {
  const number = useQuery(materialsQuery(businessType, businessId)).data?.businessNumber;
  return number
    ? `${IMAGE_DATA_TEXTS.title}（${MATERIAL_BUSINESS_LABELS[businessType]} ${number}）`
    : IMAGE_DATA_TEXTS.title;
}
