import type { CustomerRow } from '@piibs/shared/customer';
import { Descriptions } from 'antd';
import { APPLICANT_TEXTS as T } from '../texts.ts';
import { ReviewStatusTag } from './ReviewStatusTag.tsx';
import { MaskedPhone } from './UnmaskPhone.tsx';

/** A customer read-only (phone masked as listed; 查看完整号码 with customer:unmask), e.g. for its reviewer. */
export function CustomerDescriptions({ customer }: { customer: CustomerRow }) {
  return (
    <Descriptions bordered size="small" column={{ xs: 1, md: 2 }}>
      <Descriptions.Item label={T.name}>{customer.name}</Descriptions.Item>
      <Descriptions.Item label={T.uscc}>{customer.uscc}</Descriptions.Item>
      <Descriptions.Item label={T.industrySection}>
        {customer.industrySectionName ?? customer.industrySection}
      </Descriptions.Item>
      <Descriptions.Item label={T.industryDivision}>
        {customer.industryDivisionName ?? customer.industryDivision}
      </Descriptions.Item>
      <Descriptions.Item label={T.region}>{customer.regionName ?? customer.region}</Descriptions.Item>
      <Descriptions.Item label={T.address}>{customer.address}</Descriptions.Item>
      <Descriptions.Item label={T.legalRepresentative}>{customer.legalRepresentative}</Descriptions.Item>
      <Descriptions.Item label={T.contactName}>{customer.contactName}</Descriptions.Item>
      <Descriptions.Item label={T.phone}>
        <MaskedPhone key={customer.id} customerId={customer.id} phone={customer.phone} />
      </Descriptions.Item>
      <Descriptions.Item label={T.headcount}>{customer.headcount}</Descriptions.Item>
      <Descriptions.Item label={T.licenceNo}>{customer.licenceNo ?? T.none}</Descriptions.Item>
      <Descriptions.Item label={T.owner}>{customer.ownerName ?? T.none}</Descriptions.Item>
      <Descriptions.Item label={T.reviewStatus}>
        <ReviewStatusTag status={customer.reviewStatus} />
      </Descriptions.Item>
      <Descriptions.Item label={T.lastOpinion}>{customer.reviewOpinion ?? T.none}</Descriptions.Item>
    </Descriptions>
  );
}
