/** What every route declares in its `handle`: the title shown in the tab and the browser title. */
export type RouteHandle = { title: string };
