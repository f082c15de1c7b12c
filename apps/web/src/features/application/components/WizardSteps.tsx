import { Steps, theme } from 'antd';
import { usePhone } from '@/lib/use-phone.ts';
import { VISUALLY_HIDDEN } from '@/lib/visually-hidden.ts';

/**
 * Where the user is in a wizard. On a wide screen antd's Steps, every step named; on a phone (where Steps stands
 * its five steps on end and takes a third of the first screen) one line — "第 2 步，共 5 步：保单基本信息" — a bar
 * of one segment per step, and the next step's name, so the form starts on the first screen. `current` equal to
 * the number of steps means every step is done.
 */
export function WizardSteps({ titles, current }: { titles: readonly string[]; current: number }) {
  const phone = usePhone();
  const { token } = theme.useToken();
  if (!phone) return <Steps size="small" current={current} items={titles.map((title) => ({ title }))} />;

  const done = current >= titles.length;
  const next = titles[current + 1];
  return (
    <nav aria-label="投保步骤">
      <p style={{ margin: 0, color: token.colorText }}>
        {done ? (
          `已完成全部 ${titles.length} 步`
        ) : (
          <>
            第 {current + 1} 步，共 {titles.length} 步：<strong>{titles[current]}</strong>
          </>
        )}
      </p>
      <ol style={{ display: 'flex', gap: 4, margin: '8px 0 0', padding: 0, listStyle: 'none' }}>
        {titles.map((title, i) => (
          <li
            key={title}
            aria-current={i === current ? 'step' : undefined}
            style={{
              flex: 1,
              height: 4,
              borderRadius: 2,
              background: i <= current ? token.colorPrimary : token.colorBorder,
            }}
          >
            <span style={VISUALLY_HIDDEN}>
              {title}
              {i < current ? '（已完成）' : ''}
            </span>
          </li>
        ))}
      </ol>
      {!done && next !== undefined && (
        <p style={{ margin: '8px 0 0', color: token.colorTextSecondary, fontSize: token.fontSizeSM }}>
          下一步：{next}
        </p>
      )}
    </nav>
  );
}
