import { Fragment } from 'react';
import { Link } from 'react-router';
import { HOME_PATH } from '@/lib/paths.ts';
import { isNavigable, type MenuNode } from '@/stores/permission.ts';

const HOME_CRUMB = '首页';

type Crumb = { title: string; to?: string };

/**
 * The current page's trail: the home crumb first (spec §4: except for CA or role-17 users), then the
 * page's directories and the page. Directories link to where they lead unless marked 'noRedirect'; the
 * page itself does not link.
 */
function breadcrumbTrail(active: MenuNode | undefined, reduced: boolean): Crumb[] {
  const chain = active ? [...active.parents, active].filter((node) => node.title) : [];
  const onHome = active?.path === HOME_PATH;
  const trail: Crumb[] = [];
  if (!reduced && !onHome) trail.push({ title: HOME_CRUMB, to: HOME_PATH });
  chain.forEach((node, index) => {
    if (reduced && node.path === HOME_PATH) return;
    const last = index === chain.length - 1;
    const to = node.noRedirect ? undefined : (node.redirect ?? (isNavigable(node) ? node.path : undefined));
    trail.push(last || !to ? { title: node.title } : { title: node.title, to });
  });
  return trail;
}

/** Drawn as antd's Breadcrumb draws it (a list with "/" between crumbs), without its code in the shell's load. */
export function Breadcrumb({ active, reduced }: { active: MenuNode | undefined; reduced: boolean }) {
  return (
    <nav className="shell-breadcrumb" aria-label="面包屑">
      <ol>
        {breadcrumbTrail(active, reduced).map((crumb, index) => (
          <Fragment key={`${crumb.title}:${crumb.to ?? ''}`}>
            {index > 0 && (
              <li className="shell-breadcrumb-separator" aria-hidden="true">
                /
              </li>
            )}
            <li>{crumb.to ? <Link to={crumb.to}>{crumb.title}</Link> : crumb.title}</li>
          </Fragment>
        ))}
      </ol>
    </nav>
  );
}
