import { Modal } from 'antd';
import { useCallback } from 'react';
import { useAppApis } from '@/lib/app-apis.tsx';
import { useUserStore } from '@/stores/user.ts';

/** Spec §4: the logout confirm dialog ('Are you sure to log out of the system?', title 'Prompt', OK/Cancel). */
const LOGOUT_TEXTS = Object.freeze({
  title: '提示',
  content: '确定注销并退出系统吗？',
  okText: '确定',
  cancelText: '取消',
});

type ModalApi = Pick<typeof Modal, 'confirm'>;

/** Asks for confirmation, then logs out (the store goes to the server's jumpUrl). */
export function confirmLogout(modal: ModalApi = Modal): void {
  modal.confirm({
    ...LOGOUT_TEXTS,
    onOk: () => useUserStore.getState().logout(),
  });
}

/** confirmLogout with antd's context-aware modal (follows the app's locale and theme). */
export function useConfirmLogout(): () => void {
  const { modal } = useAppApis();
  return useCallback(() => confirmLogout(modal ?? Modal), [modal]);
}
