// A row of buttons of which one is chosen (aria-pressed), in antd's look: the chart/table switch and the
// dashboard's range shortcuts. Plain buttons, so the first load carries no antd Segmented.
import { theme } from 'antd';

export interface ChoiceGroupProps<Value extends string> {
  label: string;
  /** The chosen value; one not among the options leaves every button unpressed. */
  value: Value | '';
  options: readonly { label: string; value: Value }[];
  onChange(value: Value): void;
  size?: 'small' | 'middle';
}

export function ChoiceGroup<Value extends string>({
  label,
  value,
  options,
  onChange,
  size = 'middle',
}: ChoiceGroupProps<Value>) {
  const { token } = theme.useToken();
  const height = size === 'small' ? token.controlHeightSM : token.controlHeight;
  return (
    <fieldset
      aria-label={label}
      style={{
        margin: 0,
        border: 'none',
        minWidth: 0,
        display: 'inline-flex',
        flexWrap: 'wrap',
        gap: 2,
        padding: 2,
        borderRadius: token.borderRadius,
        background: token.colorBgLayout,
      }}
    >
      {options.map((o) => {
        const pressed = o.value === value;
        return (
          <button
            key={o.value}
            type="button"
            aria-pressed={pressed}
            onClick={() => onChange(o.value)}
            className="piibs-choice"
            style={{
              height: height - 4,
              padding: `0 ${size === 'small' ? 8 : 11}px`,
              border: 'none',
              borderRadius: token.borderRadiusSM,
              background: pressed ? token.colorBgElevated : 'transparent',
              boxShadow: pressed ? token.boxShadowTertiary : 'none',
              color: pressed ? token.colorText : token.colorTextSecondary,
              font: 'inherit',
              fontSize: size === 'small' ? token.fontSizeSM : token.fontSize,
              cursor: 'pointer',
            }}
          >
            {o.label}
          </button>
        );
      })}
    </fieldset>
  );
}
