import { describe, expect, it } from 'vitest';
import { pageTitle } from './page-title.ts';

describe("the page title is the route's title followed by the site title", () => {
  it('joins the route title and the site title', () => {
    expect(pageTitle('首页')).toBe('首页 - 财产保险互联网出单系统');
  });

  it('is the site title alone for a route without a title', () => {
    expect(pageTitle()).toBe('财产保险互联网出单系统');
    expect(pageTitle('')).toBe('财产保险互联网出单系统');
  });
});
