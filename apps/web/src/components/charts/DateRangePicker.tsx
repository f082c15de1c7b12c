// A day-range picker for chart filters (antd's RangePicker, with dayjs): a chunk of its own, which a page loads
// with React.lazy after it has painted, so the date picker does not weigh on the page's first load.
import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';

export interface DateRangePickerProps {
  /** 'yyyy-mm-dd' days. */
  from: string;
  to: string;
  /** The last day that may be picked. */
  max: string;
  /** The longest range, in days (both ends included). */
  maxDays: number;
  label: string;
  onChange(from: string, to: string): void;
}

const DAY = 'YYYY-MM-DD';

export default function DateRangePicker({ from, to, max, maxDays, label, onChange }: DateRangePickerProps) {
  const last = dayjs(max);
  return (
    <DatePicker.RangePicker
      aria-label={label}
      allowClear={false}
      value={[dayjs(from), dayjs(to)]}
      disabledDate={(d: Dayjs, info) => {
        if (d.isAfter(last, 'day')) return true;
        // Within maxDays of the end already picked.
        return !!info.from && Math.abs(d.diff(info.from, 'day')) >= maxDays;
      }}
      onChange={(dates) => {
        const [start, end] = dates ?? [];
        if (start && end && end.diff(start, 'day') < maxDays) onChange(start.format(DAY), end.format(DAY));
      }}
    />
  );
}
