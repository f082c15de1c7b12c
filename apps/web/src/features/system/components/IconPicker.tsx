import { CloseCircleFilled, DownOutlined } from '@ant-design/icons';
import { MENU_ICON_NAMES } from '@piibs/shared/menu';
import { Button, Popover, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { MenuIcon } from '@/lib/icons.tsx';
import { SYSTEM_TEXTS as T } from '../texts.ts';

/**
 * Picks one of the icon names the server accepts (MENU_ICON_NAMES), each drawn from the shell's fixed icon
 * table, so what the sidebar shows is what is picked here.
 */
export function IconPicker({
  value,
  onChange,
  id,
}: {
  value?: string | null;
  onChange?: (value: string | null) => void;
  id?: string;
}) {
  const [open, setOpen] = useState(false);
  const grid = (
    <div
      role="listbox"
      aria-label={T.iconPick}
      style={{ display: 'grid', gridTemplateColumns: 'repeat(6, 64px)', gap: 6, maxWidth: 420 }}
    >
      {MENU_ICON_NAMES.map((name) => (
        <Tooltip key={name} title={name} mouseEnterDelay={0.4}>
          <Button
            role="option"
            aria-selected={value === name}
            aria-label={name}
            type={value === name ? 'primary' : 'text'}
            style={{ height: 56, display: 'flex', flexDirection: 'column', gap: 2, padding: 4 }}
            onClick={() => {
              onChange?.(name);
              setOpen(false);
            }}
          >
            <MenuIcon name={name} />
            <span style={{ fontSize: 11, maxWidth: 56, overflow: 'hidden', textOverflow: 'ellipsis' }}>
              {name}
            </span>
          </Button>
        </Tooltip>
      ))}
    </div>
  );
  return (
    <Popover
      content={grid}
      title={T.iconPick}
      trigger="click"
      open={open}
      onOpenChange={setOpen}
      placement="bottomLeft"
    >
      <Button
        id={id}
        style={{ width: '100%', display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}
      >
        <span style={{ display: 'inline-flex', gap: 8, alignItems: 'center' }}>
          {value ? (
            <>
              <MenuIcon name={value} />
              {value}
            </>
          ) : (
            <Typography.Text type="secondary">{T.iconPick}</Typography.Text>
          )}
        </span>
        {value ? (
          <CloseCircleFilled
            aria-label="清除图标"
            style={{ opacity: 0.45 }}
            onClick={(event) => {
              event.stopPropagation();
              onChange?.(null);
            }}
          />
        ) : (
          <DownOutlined style={{ opacity: 0.45 }} />
        )}
      </Button>
    </Popover>
  );
}
