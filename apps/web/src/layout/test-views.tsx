// Fake pages for the shell's tests, behind a registry mock:
//   vi.mock('@/app/view-registry.ts', async (original) => (await import('./test-views.tsx')).mockViewRegistry(original));
import { type ComponentType, useState } from 'react';
import { useLocation, useParams } from 'react-router';

/** A page with a text box, for keep-alive checks. */
function FormPage() {
  const [value, setValue] = useState('');
  const { pathname } = useLocation();
  return (
    <label>
      表单 {pathname}
      <input aria-label="输入框" value={value} onChange={(event) => setValue(event.target.value)} />
    </label>
  );
}

/** A detail page that shows its own params, for the stale-params check. */
function DetailPage() {
  const { id } = useParams();
  const [value, setValue] = useState('');
  return (
    <label>
      详情 {id}
      <input aria-label={`详情输入 ${id}`} value={value} onChange={(event) => setValue(event.target.value)} />
    </label>
  );
}

function PlainPage() {
  return <p>普通页面</p>;
}

export const TEST_VIEWS: Record<string, ComponentType> = {
  'test/Form': FormPage,
  'test/Detail': DetailPage,
  'test/Plain': PlainPage,
};

/** Registry mock: the fake pages, then the real registry for every other name. */
export async function mockViewRegistry(
  importOriginal: () => Promise<typeof import('@/app/view-registry.ts')>,
) {
  const original = await importOriginal();
  return {
    ...original,
    resolveView: (name: string) => (TEST_VIEWS[name] as never) ?? original.resolveView(name),
  };
}
