/**
 * Shown where a menu route names a view the registry does not know, instead of a blank screen.
 * Plain markup: it lives in the shell's chunk, where antd's Result illustrations would only add weight.
 */
export function ViewMissing({ name }: { name: string }) {
  return (
    <div role="alert" style={{ padding: '15vh 24px', textAlign: 'center' }}>
      <h2 style={{ fontWeight: 500 }}>页面组件不存在：{name}</h2>
      <p style={{ color: 'var(--shell-secondary-text, rgba(0, 0, 0, 0.65))' }}>
        请联系管理员检查菜单配置中的组件名称
      </p>
    </div>
  );
}
