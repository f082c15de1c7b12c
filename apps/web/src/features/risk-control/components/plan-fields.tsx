// Fields the service plan's item and dispatch forms share.
import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { personOptionsQuery } from '../api.ts';
import { fenOfYuan } from '../form.ts';
import { RISK_TEXTS as T } from '../texts.ts';

/** An amount, when one is given, must be a yuan amount (two decimals at most). */
export const amountRule = {
  validator: async (_: unknown, v: string | undefined) => {
    if (v !== undefined && String(v).trim() !== '' && fenOfYuan(v) === null) throw new Error(T.amountInvalid);
  },
};

/** The persons of the organisation chosen in the form. */
export function PersonSelect({
  orgId,
  ...rest
}: {
  orgId: number | undefined;
  value?: number[];
  onChange?: (v: number[]) => void;
}) {
  const persons = useQuery(personOptionsQuery(orgId));
  return (
    <Select<number[]>
      {...rest}
      mode="multiple"
      aria-label={T.persons}
      loading={persons.isFetching}
      optionFilterProp="label"
      options={(persons.data ?? []).map((p) => ({
        value: p.id,
        label: `${p.name}（${p.specialty}${p.expert ? '·专家' : ''}）`,
      }))}
    />
  );
}
