import ColumnHeightOutlined from '@ant-design/icons/es/icons/ColumnHeightOutlined';
import type { Size } from '@piibs/shared/constants';
import App from 'antd/es/app';
import Dropdown from 'antd/es/dropdown';
import { useAppStore } from '@/stores/app.ts';

const SIZE_OPTIONS: readonly { label: string; value: Size }[] = [
  { label: '默认', value: 'default' },
  { label: '中等', value: 'medium' },
  { label: '小型', value: 'small' },
  { label: '迷你', value: 'mini' },
];

/** Spec §4: changing the size refreshes the current view and says 布局设置成功. */
export function SizeSelect({ onRefresh }: { onRefresh(): void }) {
  const { message } = App.useApp();
  const size = useAppStore((s) => s.size);
  const setSize = useAppStore((s) => s.setSize);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [size],
        items: SIZE_OPTIONS.map((option) => ({
          key: option.value,
          label: option.label,
          disabled: option.value === size,
        })),
        onClick: ({ key }) => {
          setSize(key as Size);
          onRefresh();
          // The new size re-renders the theme provider (and its message holder): say it after that render.
          setTimeout(() => void message.success('布局设置成功'), 0);
        },
      }}
    >
      <button type="button" className="shell-icon-button" aria-label="布局大小">
        <ColumnHeightOutlined />
      </button>
    </Dropdown>
  );
}
