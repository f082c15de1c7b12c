import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { ISSUER_CODE, shareTotal, splitCoinsurance } from '@piibs/shared/coinsurance';
import { microPercentText } from '@piibs/shared/money';
import { rules } from '@piibs/shared/validators';
import { Alert, Button, Checkbox, Form, type FormInstance, Input, Space, Switch, Typography } from 'antd';
import { DictSelect, dictLabel, useDict } from '@/lib/dict.tsx';
import { type ShareValue, type WizardValues, withIssuer } from '../values.ts';
import { sharesProblem, typedShares } from './coinsurance-shares.ts';
import { CoinsurerTable, CollectionNotice } from './QuoteBreakdown.tsx';

/**
 * 共保信息 / 共保/联保信息: the insurers sharing the contract, shares typed as percentages. The issuing insurer's
 * row (本公司, by the organisation's name) is always there and cannot be removed; it is the lead unless the
 * product lets another insurer lead. The running total, who collects the premium, and each insurer's premium and
 * prevention fee split to the fen (followers floor, the lead the remainder) as the server will store them.
 */
export function CoinsuranceSection({
  form,
  allowed,
  issuerName,
  issuerLeads,
  premiumFen,
  preventionFeeFen,
}: {
  form: FormInstance<WizardValues>;
  allowed: boolean;
  /** The issuing insurer's name (the organisation running the system). */
  issuerName: string;
  /** The product's rule: the issuer must be the lead. */
  issuerLeads: boolean;
  premiumFen: number | null;
  preventionFeeFen: number | null;
}) {
  const values = Form.useWatch((all: WizardValues) => all, form);
  const insurers = useDict('coinsurer');
  if (!allowed) return <Alert type="info" showIcon title="该险种不支持共保/联保，由本公司独家承保" />;

  const coinsured = Boolean(values?.coinsured);
  const shares = typedShares(values);
  const total = shares ? shareTotal(shares) : null;
  const problem = coinsured ? sharesProblem(values, issuerLeads) : null;
  const parts =
    coinsured && shares && !problem && premiumFen !== null
      ? splitCoinsurance(shares, premiumFen, preventionFeeFen ?? 0).map((p) => ({
          ...p,
          insurerName: p.insurerCode === ISSUER_CODE ? issuerName : dictLabel(insurers, p.insurerCode),
          shareText: microPercentText(p.share),
        }))
      : null;

  const setLead = (index: number) => {
    const rows = (form.getFieldValue('shares') as ShareValue[] | undefined) ?? [];
    form.setFieldValue(
      'shares',
      rows.map((r, i) => ({ ...r, lead: i === index })),
    );
  };

  return (
    <>
      <Form.Item name="coinsured" label="是否共保/联保" valuePropName="checked">
        <Switch
          checkedChildren="是"
          unCheckedChildren="否"
          onChange={(on) => {
            const rows = (form.getFieldValue('shares') as ShareValue[] | undefined) ?? [];
            if (on)
              form.setFieldValue(
                'shares',
                withIssuer(
                  rows.length ? rows : [{ insurerCode: undefined, lead: false, share: '' }],
                  issuerLeads,
                ),
              );
          }}
        />
      </Form.Item>
      {coinsured ? (
        <Form.List name="shares">
          {(fields, { add, remove }) => (
            <>
              {fields.map((field, index) => {
                const issuer = form.getFieldValue(['shares', field.name, 'insurerCode']) === ISSUER_CODE;
                return (
                  <Space key={field.key} align="baseline" wrap style={{ display: 'flex', marginBottom: 4 }}>
                    {issuer ? (
                      <Form.Item>
                        <Form.Item name={[field.name, 'insurerCode']} hidden>
                          <Input />
                        </Form.Item>
                        <Input
                          aria-label={`共保公司${index + 1}`}
                          value={`${issuerName}（本公司）`}
                          readOnly
                          style={{ width: 240 }}
                        />
                      </Form.Item>
                    ) : (
                      <Form.Item
                        name={[field.name, 'insurerCode']}
                        rules={[{ required: true, message: '请选择共保公司' }]}
                      >
                        <DictSelect
                          dict="coinsurer"
                          aria-label={`共保公司${index + 1}`}
                          placeholder="共保公司"
                          style={{ width: 240 }}
                        />
                      </Form.Item>
                    )}
                    <Form.Item name={[field.name, 'lead']} valuePropName="checked">
                      <Checkbox
                        aria-label={`主承保${index + 1}`}
                        disabled={issuerLeads}
                        onChange={(e) => e.target.checked && setLead(index)}
                      >
                        主承保
                      </Checkbox>
                    </Form.Item>
                    <Form.Item
                      name={[field.name, 'share']}
                      rules={[{ required: true, message: '请输入共保份额' }, rules.percent1To100]}
                    >
                      <Input
                        aria-label={`共保份额${index + 1}`}
                        placeholder="份额"
                        suffix="%"
                        style={{ width: 160 }}
                      />
                    </Form.Item>
                    <Button
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={`删除共保公司${index + 1}`}
                      disabled={issuer || fields.length <= 2}
                      onClick={() => remove(field.name)}
                    />
                  </Space>
                );
              })}
              <Button
                type="dashed"
                icon={<PlusOutlined />}
                disabled={fields.length >= 20}
                onClick={() => add({ insurerCode: undefined, lead: false, share: '' })}
              >
                添加共保公司
              </Button>
              <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
                {issuerLeads
                  ? '本公司为共保方之一并担任主承保人：代收全部保费，并按份额与共保人结算。'
                  : '本公司为共保方之一；该险种可由其他共保公司担任主承保人。'}
              </Typography.Paragraph>
            </>
          )}
        </Form.List>
      ) : null}
      {coinsured ? (
        <div style={{ marginTop: 16 }}>
          <Typography.Paragraph data-testid="share-total">
            份额合计：{total === null ? '—' : `${microPercentText(total)}%`}
          </Typography.Paragraph>
          {problem ? <Alert type="warning" showIcon role="alert" title={problem} /> : null}
          {parts ? (
            <>
              <CollectionNotice rows={parts} />
              <CoinsurerTable rows={parts} />
            </>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
