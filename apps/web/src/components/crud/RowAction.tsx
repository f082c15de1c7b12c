import { Button } from 'antd';
import type { ReactNode } from 'react';
import { Can } from '@/lib/permission.tsx';

/** A row's action link, shown only to callers holding `permission` (the code the server checks). */
export function RowAction(props: {
  permission: string;
  danger?: boolean;
  onClick(): void;
  children: ReactNode;
}) {
  return (
    <Can code={props.permission}>
      <Button type="link" size="small" danger={props.danger} onClick={props.onClick}>
        {props.children}
      </Button>
    </Can>
  );
}
