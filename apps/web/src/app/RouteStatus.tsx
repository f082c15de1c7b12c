import './route-status.css';

/** Shown while the first page's code loads. Plain markup: antd is not loaded yet on the sign-in pages. */
export function PageLoading() {
  return (
    <div className="piibs-page-loading" role="status" aria-label="加载中">
      <span className="piibs-page-loading-dot" />
    </div>
  );
}

/**
 * Root error boundary. Most often a page chunk that no longer exists after a redeploy, which a reload fixes.
 * Plain markup on purpose: it must render when chunks cannot be fetched (antd's among them).
 */
export function RouteError() {
  return (
    <div role="alert" className="piibs-route-error">
      <h2>页面加载失败</h2>
      <p>请刷新页面后重试</p>
      <button type="button" className="piibs-route-error-button" onClick={() => window.location.reload()}>
        刷新页面
      </button>
    </div>
  );
}
