import { DownOutlined, RightOutlined } from '@ant-design/icons';
import { Button, Card } from 'antd';
import { type ReactNode, useId, useState } from 'react';

/**
 * One section of a review page: a card whose title is a button that folds it (aria-expanded, Enter or Space),
 * a region named by its title. Open unless `defaultOpen` is false; folded, its content stays mounted.
 */
export function AuditSection({
  title,
  extra,
  defaultOpen = true,
  children,
}: {
  title: string;
  extra?: ReactNode;
  defaultOpen?: boolean;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(defaultOpen);
  const id = useId();
  return (
    <Card
      variant="borderless"
      role="region"
      aria-labelledby={`${id}-title`}
      title={
        <Button
          id={`${id}-title`}
          type="text"
          icon={open ? <DownOutlined aria-hidden /> : <RightOutlined aria-hidden />}
          aria-expanded={open}
          aria-controls={`${id}-body`}
          onClick={() => setOpen((o) => !o)}
          style={{
            font: 'inherit',
            height: 'auto',
            paddingInline: 4,
            marginInlineStart: -4,
            whiteSpace: 'normal',
            textAlign: 'start',
          }}
        >
          {title}
        </Button>
      }
      extra={extra}
      styles={open ? undefined : { body: { display: 'none' } }}
    >
      <div id={`${id}-body`} hidden={!open}>
        {children}
      </div>
    </Card>
  );
}
