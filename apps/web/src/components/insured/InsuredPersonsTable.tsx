// A 从业人员名单 read-only: 序号, name and the masked identity card number of each person (20 a page), plus any
// columns of the caller's. On a wide screen a table in a region that scrolls sideways and takes the keyboard
// focus; on a phone a card per person (DetailTable).
import { NAMED_INSURED_COLUMNS } from '@piibs/shared/named-insured';
import { useState } from 'react';
import { type DetailColumn, DetailTable } from '@/components/crud/DetailTable.tsx';
import { usePhone } from '@/lib/use-phone.ts';

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
  const phone = usePhone();
  const table = (
    <DetailTable<P>
      noun="从业人员"
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
  return phone ? (
    <section aria-label={label}>{table}</section>
  ) : (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus (WCAG 2.1.1)
    <section aria-label={label} tabIndex={0} style={{ overflowX: 'auto' }}>
      {table}
    </section>
  );
}
