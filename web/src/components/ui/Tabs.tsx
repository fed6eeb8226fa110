// antd's Tabs, the only way the app uses them (an ESLint rule sends every import here).
import { useEffect, useRef, type ComponentRef } from 'react';
import { Tabs as AntTabs, type TabsProps } from 'antd';

type TabsRef = ComponentRef<typeof AntTabs>;

/**
 * When the tabs do not fit, antd shows a "…" button that lists the hidden ones, and
 * renders it inside the element with role="tablist", where only tabs belong: screen
 * readers then count it as a tab, and axe fails the list (aria-required-children).
 * The hidden tabs are still in the list, reached with the arrow keys and read by
 * screen readers, so the button only repeats them for the mouse: it is taken out
 * of the accessibility tree and the Tab order.
 */
export function Tabs(props: TabsProps) {
  const ref = useRef<TabsRef>(null);
  // After every render, not once: antd, not this wrapper, decides when it renders the button anew.
  useEffect(() => {
    const more = ref.current?.nativeElement?.querySelector(':scope > .ant-tabs-nav .ant-tabs-nav-more');
    if (!more) return;
    more.setAttribute('aria-hidden', 'true');
    more.setAttribute('tabindex', '-1');
  });
  return <AntTabs ref={ref} {...props} />;
}
