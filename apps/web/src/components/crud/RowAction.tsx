import { Button } from 'antd';
import type { ReactNode } from 'react';
import { Auth } from '@/lib/permission.tsx';

/** A row's action link, shown only to callers holding `permission` (the code the server checks). */
export function RowAction(props: {
  permission: string;
  danger?: boolean;
  onClick(): void;
  children: ReactNode;
}) {
  return (
    <Auth permission={props.permission}>
      <Button type="link" size="small" danger={props.danger} onClick={props.onClick}>
        {props.children}
      </Button>
    </Auth>
  );
}
