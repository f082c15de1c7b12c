import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { hasMenuIcon, MenuIcon } from './icons.tsx';

describe('fixed icon table', () => {
  it('maps the names the server may send', () => {
    const names = [
      'dashboard',
      'form',
      'list',
      'money',
      'peoples',
      'shield',
      'tree',
      'system',
      'user',
      'setting',
    ];
    const more = [
      'log',
      'dict',
      'menu',
      'monitor',
      'chart',
      'project',
      'guide',
      'documentation',
      'education',
    ];
    for (const name of [...names, ...more, 'component']) expect(hasMenuIcon(name)).toBe(true);
  });

  it('renders the mapped icon', () => {
    const { container } = render(<MenuIcon name="dashboard" />);
    expect(container.querySelector('[data-icon="dashboard"]')).toBeInTheDocument();
  });

  it('falls back for an unknown name, and renders nothing without a name', () => {
    expect(
      render(<MenuIcon name="no-such-icon" />).container.querySelector('[data-icon="appstore"]'),
    ).toBeInTheDocument();
    expect(render(<MenuIcon name={undefined} />).container).toBeEmptyDOMElement();
  });

  it('does not treat object keys as icon names', () => {
    expect(hasMenuIcon('toString')).toBe(false);
  });
});
