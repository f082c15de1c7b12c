import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { type AppApis, LazyApp, useAppApis } from './app-apis.tsx';

function renderApp() {
  const got: { apis: AppApis | null } = { apis: null };
  function Probe() {
    got.apis = useAppApis();
    return <button type="button">页面按钮</button>;
  }
  render(
    <LazyApp>
      <Probe />
    </LazyApp>,
  );
  return got.apis!;
}

describe("antd's App context without antd's App in the first load", () => {
  it('messages called before their code is there show once it is, in the order they were called', async () => {
    const apis = renderApp();
    const shown: string[] = [];
    const observer = new MutationObserver(() => {
      for (const text of ['第一条', '第二条'])
        if (document.body.textContent?.includes(text) && !shown.includes(text)) shown.push(text);
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    let closed = false;
    act(() => {
      void apis.message.info('第一条', 0.01).then(() => {
        closed = true;
      });
      void apis.message.success('第二条');
    });
    expect(await screen.findByText('第二条')).toBeInTheDocument();
    observer.disconnect();
    expect(shown).toEqual(['第一条', '第二条']);
    // The handle settles when its message closes, as antd's does.
    await waitFor(() => expect(closed).toBe(true));
  });

  it("a dialog's handle answers what the user chose", async () => {
    const apis = renderApp();
    let answer: boolean | undefined;
    act(() => {
      void apis.modal.confirm({ title: '确定吗？', okText: '确定', cancelText: '取消' }).then(
        (ok) => {
          answer = ok;
        },
        () => {},
      );
    });
    await userEvent.click(await screen.findByRole('button', { name: '确 定' }));
    await waitFor(() => expect(answer).toBe(true));
  });

  it('once its code is there a message shows at once, as with antd’s App', async () => {
    const apis = renderApp();
    await userEvent.click(screen.getByRole('button', { name: '页面按钮' }));
    act(() => void apis.message.info('探测'));
    expect(await screen.findByText('探测')).toBeInTheDocument();
    // The holders are there: calls are now antd's own, synchronous ones.
    act(() => void apis.message.warning('立即显示'));
    expect(screen.getByText('立即显示')).toBeInTheDocument();
  });
});
