import ColumnHeightOutlined from '@ant-design/icons/es/icons/ColumnHeightOutlined';
import type { Size } from '@piibs/shared/constants';
import { useAppApis } from '@/lib/app-apis.tsx';
import { useAppStore } from '@/stores/app.ts';
import { MenuButton } from './MenuButton.tsx';

const SIZE_OPTIONS: readonly { label: string; value: Size }[] = [
  { label: '默认', value: 'default' },
  { label: '中等', value: 'medium' },
  { label: '小型', value: 'small' },
  { label: '迷你', value: 'mini' },
];

/** Spec §4: changing the size refreshes the current view and says 布局设置成功. */
export function SizeSelect({ onRefresh }: { onRefresh(): void }) {
  const { message } = useAppApis();
  const size = useAppStore((s) => s.size);
  const setSize = useAppStore((s) => s.setSize);
  return (
    <MenuButton
      className="shell-icon-button"
      label="布局大小"
      // The size in use is shown, not chosen again.
      entries={SIZE_OPTIONS.map((option) => ({
        key: option.value,
        label: option.label,
        disabled: option.value === size,
      }))}
      onSelect={(key) => {
        setSize(key as Size);
        onRefresh();
        // The new size re-renders the theme provider (and its message holder): say it after that render.
        setTimeout(() => void message.success('布局设置成功'), 0);
      }}
    >
      <ColumnHeightOutlined />
    </MenuButton>
  );
}
