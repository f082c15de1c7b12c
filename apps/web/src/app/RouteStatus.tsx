import { Button, Spin } from 'antd';

/** Shown while the first page's code loads. */
export function PageLoading() {
  return <Spin size="large" style={{ display: 'block', margin: '20vh auto' }} />;
}

/**
 * Root error boundary. Most often a page chunk that no longer exists after a redeploy, which a reload fixes.
 * Plain markup on purpose: it must render when chunks cannot be fetched, and antd's Result would add its
 * illustrations to the first-load bundle.
 */
export function RouteError() {
  return (
    <div role="alert" style={{ padding: '20vh 24px', textAlign: 'center' }}>
      <h2>页面加载失败</h2>
      <p>请刷新页面后重试</p>
      <Button type="primary" onClick={() => window.location.reload()}>
        刷新页面
      </Button>
    </div>
  );
}
