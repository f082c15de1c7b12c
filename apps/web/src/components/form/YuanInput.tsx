import { InputNumber, type InputNumberProps } from 'antd';

/**
 * An amount typed in yuan with two decimals, kept as text (never a float). It has no min or max: what is typed
 * is what the field's `yuanRule` checks, so −5 is refused with a message instead of silently becoming 0.01.
 */
export function YuanInput({
  width = '100%',
  ...props
}: Omit<InputNumberProps<string>, 'stringMode' | 'min' | 'max' | 'precision' | 'suffix'> & {
  width?: number | string;
}) {
  return <InputNumber<string> {...props} stringMode precision={2} style={{ width }} suffix="元" />;
}
