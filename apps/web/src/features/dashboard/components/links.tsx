// Links the dashboard offers: only to pages the caller's menus let them open; otherwise the words alone.
import { type ReactNode, useMemo } from 'react';
import { Link, matchPath } from 'react-router';
import { FLOWS, type FlowDef } from '@/features/application/flows.ts';
import { flattenMenus, isContainer, usePermissionStore } from '@/stores/permission.ts';
import { useUserStore } from '@/stores/user.ts';

/** Answers whether a path (query ignored) is one of the caller's pages. */
export function useCanOpen(): (path: string) => boolean {
  const nodes = usePermissionStore((s) => s.nodes);
  return useMemo(() => {
    const pages = flattenMenus(nodes).filter((n) => !n.external && !isContainer(n));
    return (path: string) => {
      const pathname = path.split('?')[0] ?? path;
      return pages.some((n) => matchPath({ path: n.path, end: true }, pathname));
    };
  }, [nodes]);
}

const wizardOf = (flow: FlowDef) => `${flow.base}/${flow.steps[0]!.path}/0/1`;

/**
 * The new-application wizard for the caller, or null when they may open none: an agent's own, a contractor's
 * project one, the enterprise's self-service otherwise.
 */
export function useWizardPath(): string | null {
  const canOpen = useCanOpen();
  const roles = useUserStore((s) => s.roles);
  const order = roles.includes('agent')
    ? [FLOWS.agent, FLOWS.insured, FLOWS.epinsure]
    : roles.includes('contractor')
      ? [FLOWS.epinsure, FLOWS.insured, FLOWS.agent]
      : [FLOWS.insured, FLOWS.agent, FLOWS.epinsure];
  return order.map(wizardOf).find(canOpen) ?? null;
}

export function PageLink({ to, children }: { to: string | null; children: ReactNode }) {
  const canOpen = useCanOpen();
  return to && canOpen(to) ? <Link to={to}>{children}</Link> : <span>{children}</span>;
}
