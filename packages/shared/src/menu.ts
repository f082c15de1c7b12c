import { z } from 'zod';

/** Route meta as the spec names it (§3 Menu route): title, icon, affix, noCache. */
export const menuMetaSchema = z.object({
  title: z.string(),
  icon: z.string().nullish(),
  affix: z.boolean().optional(),
  noCache: z.boolean().optional(),
});

export interface MenuRoute {
  /** Absolute for top-level entries ('/piibs/epinsure'), relative for children ('insureList'). */
  path: string;
  /** 'Layout' for the main layout, otherwise a view name the web app's view registry knows. */
  component: string;
  name?: string | undefined;
  hidden?: boolean | undefined;
  redirect?: string | undefined;
  alwaysShow?: boolean | undefined;
  meta: z.infer<typeof menuMetaSchema>;
  children?: MenuRoute[] | undefined;
}

export const menuRouteSchema: z.ZodType<MenuRoute> = z.lazy(() =>
  z.object({
    path: z.string(),
    component: z.string(),
    name: z.string().optional(),
    hidden: z.boolean().optional(),
    redirect: z.string().optional(),
    alwaysShow: z.boolean().optional(),
    meta: menuMetaSchema,
    children: z.array(menuRouteSchema).optional(),
  }),
);

/** The name of the main layout in a menu route's `component`. */
export const LAYOUT_COMPONENT = 'Layout';

/**
 * Icon names a menu may carry. The web app maps each to an icon component in a fixed table (so the
 * bundle only holds these), and the API refuses any other name.
 */
export const MENU_ICON_NAMES = [
  'dashboard',
  'form',
  'list',
  'money',
  'peoples',
  'user',
  'shield',
  'tree',
  'system',
  'setting',
  'log',
  'dict',
  'menu',
  'monitor',
  'chart',
  'project',
  'guide',
  'documentation',
  'education',
  'component',
  'audit',
  'policy',
  'service',
  'product',
  'upload',
  'payment',
] as const;
export type MenuIconName = (typeof MENU_ICON_NAMES)[number];
