// A 从业人员名单 read-only: 序号, name and the masked identity card number of each person (20 a page), plus any
// columns of the caller's, in a region that scrolls sideways on a narrow screen and takes the keyboard focus.
import { NAMED_INSURED_COLUMNS } from '@piibs/shared/named-insured';
import { Table, type TableColumnsType } from 'antd';

interface Person {
  sort: number;
  name: string;
  idNumberMasked: string;
}

export function InsuredPersonsTable<P extends Person>({
  label,
  persons,
  more = [],
}: {
  label: string;
  persons: P[];
  more?: TableColumnsType<P>;
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus (WCAG 2.1.1)
    <section aria-label={label} tabIndex={0} style={{ overflowX: 'auto' }}>
      <Table<P>
        rowKey="sort"
        size="small"
        dataSource={persons}
        pagination={persons.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
        columns={[
          { title: '序号', dataIndex: 'sort', width: 64 },
          { title: NAMED_INSURED_COLUMNS[0], dataIndex: 'name' },
          { title: NAMED_INSURED_COLUMNS[1], dataIndex: 'idNumberMasked' },
          ...more,
        ]}
      />
    </section>
  );
}
