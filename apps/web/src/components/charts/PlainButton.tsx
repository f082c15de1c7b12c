// antd's small default and link buttons drawn as plain buttons, in antd's look (its CSS variables): the
// dashboard's buttons, so its first load carries no antd Button (with its wave effect and compact-space code).
import './plain-button.css';
import type { ButtonHTMLAttributes, ReactNode } from 'react';

interface PlainButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> {
  variant?: 'default' | 'link';
  icon?: ReactNode;
}

export function PlainButton({ variant = 'default', icon, children, className, ...rest }: PlainButtonProps) {
  return (
    <button
      {...rest}
      type="button"
      className={['piibs-button', variant === 'link' ? 'piibs-button-link' : '', className ?? '']
        .filter(Boolean)
        .join(' ')}
    >
      {icon}
      {children !== undefined && <span>{children}</span>}
    </button>
  );
}
