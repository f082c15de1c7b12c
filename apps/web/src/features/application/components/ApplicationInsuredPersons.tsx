// 从业人员名单 of an application, read-only (the view page and the underwriter's review): each person with the
// identity card number masked. Nothing when the application has no list (its product does not ask for one).
import type { InsuredPersonRow } from '@piibs/shared/named-insured';
import { useQuery } from '@tanstack/react-query';
import { Table } from 'antd';
import type { ReactNode } from 'react';
import { applicationInsuredQuery } from '../api.ts';

export const applicationInsuredTitle = (n: number) => `从业人员名单（共 ${n} 人）`;

export function ApplicationInsuredPersons({
  applicationId,
  frame,
}: {
  applicationId: number;
  /** The section around the table (a card on the view page, a foldable section on the review page). */
  frame: (title: string, table: ReactNode) => ReactNode;
}) {
  const list = useQuery(applicationInsuredQuery(applicationId)).data;
  if (!list || list.persons.length === 0) return null;
  const title = applicationInsuredTitle(list.persons.length);
  return frame(
    title,
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus (WCAG 2.1.1)
    <section aria-label={title} tabIndex={0} style={{ overflowX: 'auto' }}>
      <Table<InsuredPersonRow>
        rowKey="sort"
        size="small"
        dataSource={list.persons}
        pagination={list.persons.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
        columns={[
          { title: '序号', dataIndex: 'sort', width: 64 },
          { title: '姓名', dataIndex: 'name' },
          { title: '身份证号码', dataIndex: 'idNumberMasked' },
        ]}
      />
    </section>,
  );
}
