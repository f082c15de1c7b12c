import { PASSWORD_STRENGTH_LABELS, passwordStrength } from '@piibs/shared/password';

const COLORS = ['#ff4d4f', '#faad14', '#52c41a', '#389e0d'];

/** Live strength of a new password: three bars and the label (太弱 / 一般 / 良好 / 强). */
export function PasswordStrengthMeter({ password }: { password: string | undefined }) {
  if (!password) return null;
  const score = passwordStrength(password);
  const color = COLORS[score];
  const label = PASSWORD_STRENGTH_LABELS[score];
  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 8, marginTop: 6 }}>
      <div aria-hidden="true" style={{ display: 'flex', flex: 1, gap: 4 }}>
        {[1, 2, 3].map((bar) => (
          <span
            key={bar}
            style={{
              flex: 1,
              height: 4,
              borderRadius: 2,
              background: score >= bar || (score === 0 && bar === 1) ? color : 'rgba(0,0,0,0.08)',
            }}
          />
        ))}
      </div>
      <span aria-live="polite" style={{ color, fontSize: 12, minWidth: 28 }}>
        密码强度：{label}
      </span>
    </div>
  );
}
