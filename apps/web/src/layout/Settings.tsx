import { CheckOutlined } from '@ant-design/icons';
import { PREDEFINED_THEME_COLORS } from '@piibs/shared/constants';
import { siteSettingsSchema } from '@piibs/shared/site';
import { Button, Divider, Drawer, Form, Input, Switch } from 'antd';
import { useEffect } from 'react';
import { useAppApis } from '@/lib/app-apis.tsx';
import { can } from '@/lib/permission.tsx';
import { type LayoutSettings, useSettingsStore } from '@/stores/settings.ts';
import { useShellSession } from './session-adapter.ts';
import { useSaveSiteSettings, useSiteSettings } from './site-settings.ts';

type Toggle = {
  [K in keyof LayoutSettings]: LayoutSettings[K] extends boolean ? K : never;
}[keyof LayoutSettings];

const LAYOUT_TOGGLES: readonly { key: Toggle; label: string }[] = [
  { key: 'tagsView', label: '显示标签' },
  { key: 'fixedHeader', label: '固定 Header' },
  { key: 'sidebarLogo', label: '显示 Logo' },
  { key: 'uniqueOpened', label: '菜单 UniqueOpened' },
  { key: 'showFooter', label: '显示页脚' },
];

const row = { display: 'flex', justifyContent: 'space-between', alignItems: 'center', padding: '10px 0' };

/** The layout settings drawer (spec §2); loaded on first open. Every choice is persisted at once. */
export default function SettingsDrawer() {
  const { message } = useAppApis();
  const settings = useSettingsStore();
  const { roles } = useShellSession();

  const applyTheme = (color: string) => {
    if (color === settings.theme) return;
    message.open({ key: 'theme', type: 'loading', content: '正在应用主题…', duration: 0 });
    settings.changeSetting('theme', color);
    // The tokens apply in the render this update schedules; the success note follows it.
    setTimeout(() => message.open({ key: 'theme', type: 'success', content: '主题已切换', duration: 2 }), 0);
  };

  return (
    <Drawer
      title="系统布局设置"
      open={settings.drawerOpen}
      onClose={() => settings.setDrawerOpen(false)}
      afterOpenChange={(open) => {
        // Closed (Esc, ×, the mask): the focus goes back to the avatar button the drawer was opened from, unless
        // the user has already put it somewhere else.
        const focused = document.activeElement;
        if (!open && (!focused || focused === document.body || focused.closest('.ant-drawer')))
          document.querySelector<HTMLElement>('.shell-avatar')?.focus();
      }}
      size={280}
    >
      <div style={row}>
        <span>主题颜色</span>
      </div>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
        {PREDEFINED_THEME_COLORS.map((color) => (
          <button
            key={color}
            type="button"
            aria-pressed={color === settings.theme}
            aria-label={`主题颜色 ${color}`}
            title={color}
            onClick={() => applyTheme(color)}
            style={{
              width: 28,
              height: 28,
              border: 'none',
              borderRadius: 4,
              background: color,
              color: '#fff',
              cursor: 'pointer',
            }}
          >
            {color === settings.theme && <CheckOutlined />}
          </button>
        ))}
      </div>
      <div style={row}>
        <span>暗色模式</span>
        <Switch
          aria-label="暗色模式"
          checked={settings.dark}
          onChange={(checked) => settings.changeSetting('dark', checked)}
        />
      </div>
      <div style={row}>
        <span>大字模式（适老化）</span>
        <Switch
          aria-label="大字模式"
          checked={settings.largeText}
          onChange={(checked) => settings.changeSetting('largeText', checked)}
        />
      </div>
      <Divider titlePlacement="start">系统布局配置</Divider>
      {LAYOUT_TOGGLES.map(({ key, label }) => (
        <div key={key} style={row}>
          <span>{label}</span>
          <Switch
            aria-label={label}
            checked={settings[key]}
            onChange={(checked) => settings.changeSetting(key, checked)}
          />
        </div>
      ))}
      {can('admin', { roles }) && <SiteSettingsForm />}
    </Drawer>
  );
}

/** The administrator's footer text and filing numbers, for everyone (server-side setting). */
function SiteSettingsForm() {
  const { message } = useAppApis();
  const [form] = Form.useForm();
  const { data } = useSiteSettings();
  const save = useSaveSiteSettings();
  useEffect(() => {
    if (data) form.setFieldsValue(data);
  }, [data, form]);
  const fields = siteSettingsSchema.shape;
  return (
    <>
      <Divider titlePlacement="start">页脚备案信息</Divider>
      <Form
        form={form}
        layout="vertical"
        onFinish={(values) =>
          save.mutate(siteSettingsSchema.parse(values), {
            onSuccess: () => void message.success('备案信息已保存'),
          })
        }
      >
        {(['footerTxt', 'caseNumber', 'policeNumber'] as const).map((name) => (
          <Form.Item
            key={name}
            name={name}
            label={fields[name].meta()?.title as string}
            rules={[{ max: name === 'footerTxt' ? 100 : 50 }]}
          >
            <Input allowClear />
          </Form.Item>
        ))}
        <Button type="primary" htmlType="submit" loading={save.isPending} block>
          保存备案信息
        </Button>
      </Form>
    </>
  );
}
