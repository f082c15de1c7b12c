// axe-core (WCAG 2.1 A and AA rules) on the page as it is: the serious and critical violations, each as one line
// naming the rule, what it means and where (the first few nodes), for a failure message a person can act on.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export const WCAG21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** The page's serious and critical WCAG 2.1 A/AA violations, as readable lines (none: an empty list). */
export async function seriousViolations(page: Page, where: string): Promise<string[]> {
  // A table reloading (the monitor polls) is shown dimmed under its spinner: check what a reader reads, loaded.
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0, { timeout: 15_000 });
  // Violations only: axe skips collecting what passed, which halves its time on a long list page.
  const { violations } = await new AxeBuilder({ page })
    .withTags(WCAG21_AA)
    .options({ resultTypes: ['violations'] })
    .analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => {
      const nodes = v.nodes
        .slice(0, 3)
        .map((n) => `${n.target.join(' ')}${n.any[0]?.message ? ` (${n.any[0].message})` : ''}`)
        .join('; ');
      return `${where}: ${v.id} [${v.impact}] ×${v.nodes.length} — ${v.help}: ${nodes}`;
    });
}
