// The fields of an enterprise record, declared once for customers (投保企业), service organisations and their
// persons: the code (GB 32100), the name, the address, the region choices, a phone that may come masked, the
// enabled switch and the note. Each form passes its own labels and required messages; the checks are the
// shared ones the server runs.
import { contactForm } from '@piibs/shared/risk-control';
import { isUscc } from '@piibs/shared/uscc';
import { isTaxNumber, MESSAGES, rules } from '@piibs/shared/validators';
import { Form, Input, Switch } from 'antd';
import type { Rule } from 'antd/es/form';
import type { NamePath } from 'antd/es/form/interface';
import { type ReactNode, useMemo } from 'react';
import { useDict } from '@/lib/dict.tsx';
import { zodRule } from './zod-rule.ts';

interface ItemProps {
  label: string;
  /** The message shown when the field is left empty. */
  required: string;
  readOnly?: boolean | undefined;
}

const requiredRule = (message: string): Rule => ({ required: true, whitespace: true, message });

/**
 * 统一社会信用代码, checked case-blind as the server checks it: a GB 32100 code with its check character, or with
 * `legacyTaxNumbers` also a 15/18-character tax number of the old registration.
 */
export function EnterpriseCodeItem({
  name,
  label,
  required,
  readOnly,
  disabled,
  legacyTaxNumbers = false,
}: ItemProps & { name: string; disabled?: boolean | undefined; legacyTaxNumbers?: boolean }) {
  const valid = legacyTaxNumbers ? isTaxNumber : isUscc;
  const codeRule: Rule = {
    validator: (_: unknown, value: unknown) =>
      typeof value !== 'string' || value.trim() === '' || valid(value.trim().toUpperCase())
        ? Promise.resolve()
        : Promise.reject(new Error(MESSAGES.uscc)),
  };
  return (
    <Form.Item name={name} label={label} rules={[requiredRule(required), codeRule]}>
      <Input maxLength={18} readOnly={readOnly} disabled={disabled} />
    </Form.Item>
  );
}

/** The enterprise's name: 2 to 100 characters. */
export function EnterpriseNameItem({ label, required, readOnly }: ItemProps) {
  return (
    <Form.Item
      name="name"
      label={label}
      rules={[requiredRule(required), { min: 2, message: '至少 2 个字符' }]}
    >
      <Input maxLength={100} readOnly={readOnly} />
    </Form.Item>
  );
}

/** The address, up to 200 characters; required when `required` names its message. */
export function AddressItem({ label, required, readOnly }: Partial<ItemProps> & { label: string }) {
  return (
    <Form.Item name="address" label={label} rules={required ? [requiredRule(required)] : []}>
      <Input maxLength={200} readOnly={readOnly} />
    </Form.Item>
  );
}

/**
 * A phone as loaded may be masked (138****5678): sending the mask back keeps the stored number. With `kept` only
 * that very mask passes (else the shared phone rule); without it, any masked number does, as the server's
 * schema allows (a list of contacts, each loaded masked). `extra` is the 查看完整号码 link.
 */
export function PhoneItem({
  name,
  label,
  required,
  readOnly,
  kept,
  extra,
}: ItemProps & { name: NamePath; kept?: string | undefined; extra?: ReactNode }) {
  const phoneRule: Rule =
    kept === undefined
      ? zodRule(contactForm.shape.phone)
      : {
          validator: (rule: unknown, value: unknown) =>
            kept.includes('*') && value === kept ? Promise.resolve() : rules.phone.validator(rule, value),
        };
  return (
    <Form.Item name={name} label={label} rules={[requiredRule(required), phoneRule]} extra={extra}>
      <Input maxLength={20} readOnly={readOnly} />
    </Form.Item>
  );
}

/** 启用 / 停用. */
export function EnabledItem({
  label,
  on,
  off,
  disabled,
}: {
  label: string;
  on: string;
  off: string;
  disabled?: boolean | undefined;
}) {
  return (
    <Form.Item name="enabled" label={label} valuePropName="checked">
      <Switch checkedChildren={on} unCheckedChildren={off} disabled={disabled} />
    </Form.Item>
  );
}

/** 备注: up to 500 characters. */
export function NoteItem({ label }: { label: string }) {
  return (
    <Form.Item name="note" label={label}>
      <Input.TextArea rows={2} maxLength={500} />
    </Form.Item>
  );
}

/**
 * An enterprise's region choices (customers, service organisations): Zhenjiang's districts first, then the
 * cities of Jiangsu (GB/T 2260 codes from the dictionaries); empty groups are left out.
 */
export function useEnterpriseRegionOptions() {
  const zhenjiang = useDict('region_zhenjiang');
  const jiangsu = useDict('region_jiangsu');
  return useMemo(
    () =>
      [
        { label: '镇江市', options: zhenjiang },
        { label: '江苏省', options: jiangsu },
      ].filter((group) => group.options.length > 0),
    [zhenjiang, jiangsu],
  );
}
