import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { Tabs } from './Tabs';

const items = ['one', 'two', 'three'].map((k) => ({ key: k, label: k, children: `${k} panel` }));

describe('Tabs', () => {
  it('keeps the overflow button out of the tab list for screen readers and the Tab key', () => {
    const { container } = render(<Tabs items={items} />);
    const more = container.querySelector('.ant-tabs-nav-more');
    expect(more).not.toBeNull();
    expect(more).toHaveAttribute('aria-hidden', 'true');
    expect(more).toHaveAttribute('tabindex', '-1');
    // What is left in the list for assistive technology: the tabs.
    expect(screen.getByRole('tablist')).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['one', 'two', 'three']);
    expect(screen.queryByRole('button')).toBeNull();
  });
});
