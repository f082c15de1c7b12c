import { useMemo } from 'react';
import { useDict } from '@/lib/dict.tsx';

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
