import { Card, Col, Row } from 'antd';
import type { ReactNode } from 'react';

/**
 * The frame of an administration screen: the same padding and cards everywhere. `aside` is a panel beside
 * the main card (a department tree, a permission tree …), on the left or the right; it stacks on narrow screens.
 */
export function CrudPage({
  children,
  aside,
  asideTitle,
  asideSide = 'left',
  asideSpan = 6,
  title,
  extra,
}: {
  children: ReactNode;
  aside?: ReactNode;
  asideTitle?: ReactNode;
  asideSide?: 'left' | 'right';
  /** Columns of 24 the aside takes on wide screens. */
  asideSpan?: number;
  title?: ReactNode;
  extra?: ReactNode;
}) {
  const main = (
    <Card variant="borderless" title={title} extra={extra} styles={{ body: { paddingBlock: 20 } }}>
      {children}
    </Card>
  );
  if (!aside)
    return (
      <div className="crud-page" style={{ padding: 16 }}>
        {main}
      </div>
    );
  const side = (
    <Col xs={24} xl={asideSpan} key="aside">
      <Card variant="borderless" title={asideTitle} styles={{ body: { paddingBlock: 16 } }}>
        {aside}
      </Card>
    </Col>
  );
  const body = (
    <Col xs={24} xl={24 - asideSpan} key="main">
      {main}
    </Col>
  );
  return (
    <div className="crud-page" style={{ padding: 16 }}>
      <Row gutter={[16, 16]}>{asideSide === 'left' ? [side, body] : [body, side]}</Row>
    </div>
  );
}
