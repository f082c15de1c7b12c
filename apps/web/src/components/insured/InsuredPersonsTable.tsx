// A 从业人员名单 read-only: 序号, name and the masked identity card number of each person (20 a page), plus any
// columns of the caller's: a table in a region that scrolls sideways on a wide screen, a card per person on a
// phone (DetailTable).
import { NAMED_INSURED_COLUMNS } from '@piibs/shared/named-insured';
import { useState } from 'react';
import { type DetailColumn, DetailTable } from '@/components/crud/DetailTable.tsx';

interface Person {
  sort: number;
  name: string;
  idNumberMasked: string;
}

const PAGE_SIZE = 20;

export function InsuredPersonsTable<P extends Person>({
  label,
  persons,
  more = [],
}: {
  label: string;
  persons: P[];
  more?: DetailColumn<P>[];
}) {
  const [page, setPage] = useState(1);
  return (
    <DetailTable<P>
      noun="从业人员"
      region={label}
      rowKey="sort"
      size="small"
      dataSource={persons}
      pages={{ current: page, pageSize: PAGE_SIZE, onChange: setPage }}
      columns={[
        // A card heads with the name; its place in the list is the card's own.
        { title: '序号', dataIndex: 'sort', width: 64, card: false },
        { title: NAMED_INSURED_COLUMNS[0], dataIndex: 'name' },
        { title: NAMED_INSURED_COLUMNS[1], dataIndex: 'idNumberMasked' },
        ...more,
      ]}
    />
  );
}
