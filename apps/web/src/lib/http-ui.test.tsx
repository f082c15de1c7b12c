import { act, screen } from '@testing-library/react';
import { notification } from 'antd';
import { afterEach, describe, expect, it } from 'vitest';
import { antdHttpUi } from './http-ui.ts';

afterEach(() => notification.destroy());

describe('error notices', () => {
  it('calls failing together with the same words show one notice; different words, one each', async () => {
    const ui = antdHttpUi({ confirm: () => undefined }, notification);
    await act(async () => {
      ui.error('网络连接失败，请检查网络', 5000);
      ui.error('网络连接失败，请检查网络', 5000);
      ui.error('请求超时', 5000);
    });
    expect(await screen.findAllByText('网络连接失败，请检查网络')).toHaveLength(1);
    expect(screen.getAllByText('请求超时')).toHaveLength(1);
  });
});
