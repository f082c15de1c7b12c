// The range filter: the usual shortcuts and any range of days up to a year (Asia/Shanghai days), picked with the
// browser's own date inputs (nothing to download). A range that cannot be asked for says why under the inputs,
// naming the field, and the figures stay as they are.
import { theme } from 'antd';
import { useId, useState } from 'react';
import { ChoiceGroup } from '@/components/charts/ChoiceGroup.tsx';
import { type DateRange, rangeProblem, SHORTCUTS, type ShortcutKey } from '../range.ts';
import { DASHBOARD_TEXTS as T } from '../texts.ts';

interface RangeFilterProps {
  value: DateRange;
  /** The shortcut the value is, if any. */
  shortcut: ShortcutKey | null;
  today: string;
  onShortcut(key: ShortcutKey): void;
  onChange(range: DateRange): void;
}

export function RangeFilter({ value, shortcut, today, onShortcut, onChange }: RangeFilterProps) {
  const { token } = theme.useToken();
  const errorId = useId();
  const [draft, setDraft] = useState(value);
  const [shown, setShown] = useState(value);
  // The range shown changed from outside (a shortcut, the URL, the server's default): the inputs follow.
  if (shown.from !== value.from || shown.to !== value.to) {
    setShown(value);
    setDraft(value);
  }
  const problem = rangeProblem(draft, today);

  const edit = (field: keyof DateRange, text: string) => {
    const next = { ...draft, [field]: text };
    setDraft(next);
    if (!rangeProblem(next, today) && (next.from !== value.from || next.to !== value.to)) onChange(next);
  };
  const dateInput = (field: keyof DateRange, label: string) => (
    <input
      type="date"
      aria-label={label}
      value={draft[field]}
      max={today}
      required
      aria-invalid={problem?.field === field}
      aria-describedby={problem?.field === field ? errorId : undefined}
      onChange={(e) => edit(field, e.target.value)}
      style={{
        height: token.controlHeight,
        padding: `0 ${token.paddingSM - 1}px`,
        border: `1px solid ${problem?.field === field ? token.colorError : token.colorBorder}`,
        borderRadius: token.borderRadius,
        background: token.colorBgContainer,
        color: token.colorText,
        font: 'inherit',
        colorScheme: 'light dark',
      }}
    />
  );
  return (
    <div style={{ margin: '16px 0 4px' }}>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center' }}>
        <span>{T.range}</span>
        <ChoiceGroup
          label={T.rangeShortcuts}
          value={shortcut ?? ''}
          onChange={onShortcut}
          options={SHORTCUTS.map((s) => ({ label: s.label, value: s.key }))}
        />
        <fieldset
          aria-label={T.rangeLabel}
          style={{
            display: 'inline-flex',
            gap: 8,
            alignItems: 'center',
            margin: 0,
            padding: 0,
            border: 'none',
            minWidth: 0,
          }}
        >
          {dateInput('from', T.rangeFrom)}
          <span aria-hidden="true">~</span>
          {dateInput('to', T.rangeTo)}
        </fieldset>
      </div>
      {problem && (
        <div id={errorId} role="alert" style={{ color: token.colorErrorText, marginTop: 4 }}>
          {problem.message}
        </div>
      )}
    </div>
  );
}
