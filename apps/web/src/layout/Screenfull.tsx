import FullscreenExitOutlined from '@ant-design/icons/es/icons/FullscreenExitOutlined';
import FullscreenOutlined from '@ant-design/icons/es/icons/FullscreenOutlined';
import { useEffect, useState } from 'react';
import screenfull from 'screenfull';
import { useAppApis } from '@/lib/app-apis.tsx';

/** Spec §5/§8 text, word for word. */
export const FULLSCREEN_UNSUPPORTED = 'your browser can not work';

export function Screenfull() {
  const { message } = useAppApis();
  const [full, setFull] = useState(false);

  useEffect(() => {
    if (!screenfull.isEnabled) return;
    const onChange = () => setFull(screenfull.isFullscreen);
    screenfull.on('change', onChange);
    return () => screenfull.off('change', onChange);
  }, []);

  const toggle = () => {
    if (!screenfull.isEnabled) {
      void message.warning(FULLSCREEN_UNSUPPORTED);
      return;
    }
    void screenfull.toggle();
  };

  return (
    <button
      type="button"
      className="shell-icon-button"
      aria-label={full ? '退出全屏' : '全屏'}
      onClick={toggle}
    >
      {full ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
    </button>
  );
}
