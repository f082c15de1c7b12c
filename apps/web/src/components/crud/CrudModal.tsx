import { Alert, Button, Drawer, Form, type FormInstance, type FormProps, Modal, Space } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { applyServerErrors, type FieldNames } from '@/components/form/server-errors.ts';
import { useAppApis } from '@/lib/app-apis.tsx';
import { serverError } from './resource.ts';
import { CRUD_TEXTS as T } from './texts.ts';

export interface CrudModalProps<V extends object, R> {
  open: boolean;
  title: ReactNode;
  /** The record being edited; null or undefined creates a new one. */
  record?: R | null;
  /** The form's values for a record (default: the record's own fields). */
  toValues?: (record: R) => Partial<V>;
  /** The form's values for a new record. */
  initialValues?: Partial<V>;
  /**
   * Saves. Make the call with `inlineErrors: true` (see postInline): a refusal it throws is shown on the form,
   * on the fields its `errors` name.
   */
  onSubmit: (values: V, record: R | null) => Promise<unknown>;
  /**
   * For a 409 on an edit: the record as the server holds it now. The form then shows it, with the server's
   * message, and the next save sends its new version.
   */
  reload?: (record: R) => Promise<R | undefined>;
  onClose: () => void;
  onSaved?: (result: unknown, record: R | null) => void;
  /** Request fields the form names differently (see applyServerErrors); by default a field is its request path. */
  fieldNames?: FieldNames;
  /** A drawer from the right instead of a centred dialog (long forms). */
  drawer?: boolean;
  width?: number;
  okText?: string;
  /** Form props (layout, labelCol …). */
  formProps?: Omit<FormProps<V>, 'form' | 'onFinish' | 'initialValues' | 'children'>;
  children: ReactNode | ((form: FormInstance<V>, record: R | null) => ReactNode);
}

function versionOf(record: unknown): unknown {
  return (record as { version?: unknown } | null)?.version;
}

/**
 * The create/edit dialog of a CRUD screen: an antd Form with the page's fields (shared validators as
 * `rules`), the server's refusal shown at the form, and optimistic concurrency (a 409 reloads the record).
 */
export function CrudModal<V extends object, R = V>({
  open,
  title,
  record,
  toValues,
  initialValues,
  onSubmit,
  reload,
  onClose,
  onSaved,
  fieldNames,
  drawer = false,
  width = 560,
  okText = T.ok,
  formProps,
  children,
}: CrudModalProps<V, R>) {
  const [form] = Form.useForm<V>();
  const { message } = useAppApis();
  const [current, setCurrent] = useState<R | null>(record ?? null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  // A new form for every opening: no values left over from the previous record.
  const [session, setSession] = useState(0);

  useEffect(() => {
    if (!open) return;
    setCurrent(record ?? null);
    setError(null);
    setSession((n) => n + 1);
  }, [open, record]);

  const valuesOf = (r: R | null): Partial<V> | undefined =>
    r ? (toValues ? toValues(r) : (r as unknown as Partial<V>)) : initialValues;

  const finish = async (values: V) => {
    setError(null);
    setSaving(true);
    try {
      const result = await onSubmit(values, current);
      void message.success(current ? T.saved : T.created);
      onSaved?.(result, current);
      onClose();
    } catch (err) {
      const refusal = serverError(err);
      // Network failures were announced by the client; a 401 follows its policy (the re-login dialog).
      if (!refusal || refusal.status === 401) return;
      if (refusal.status === 409 && current && reload) {
        const fresh = await reload(current).catch(() => undefined);
        if (fresh && versionOf(fresh) !== versionOf(current)) {
          setCurrent(fresh);
          form.setFieldsValue(valuesOf(fresh) as Parameters<typeof form.setFieldsValue>[0]);
          setError(`${refusal.message}（${T.conflictReloaded}）`);
          return;
        }
      }
      if (!applyServerErrors(form, err, fieldNames)) setError(refusal.message);
    } finally {
      setSaving(false);
    }
  };

  const body = (
    <Form<V>
      key={session}
      form={form}
      layout="vertical"
      {...formProps}
      initialValues={valuesOf(current)}
      onFinish={finish}
      onValuesChange={() => {
        if (error) setError(null);
      }}
    >
      {error ? <Alert type="error" showIcon role="alert" title={error} style={{ marginBottom: 16 }} /> : null}
      {typeof children === 'function' ? children(form, current) : children}
    </Form>
  );

  if (drawer) {
    return (
      <Drawer
        open={open}
        title={title}
        size={width}
        onClose={onClose}
        destroyOnHidden
        footer={
          <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
            <Button onClick={onClose}>{T.cancel}</Button>
            <Button type="primary" loading={saving} onClick={() => form.submit()}>
              {okText}
            </Button>
          </Space>
        }
      >
        {body}
      </Drawer>
    );
  }
  return (
    <Modal
      open={open}
      title={title}
      width={width}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={okText}
      cancelText={T.cancel}
      confirmLoading={saving}
      destroyOnHidden
      mask={{ closable: false }}
    >
      {body}
    </Modal>
  );
}
