import { useEffect, useRef, type ReactNode } from 'react';
import { useSiteInfo } from '../lib/site.ts';

let firstHeading = true;

/**
 * The page's h1, which also names the browser tab. When the page changes state (login,
 * registration, pass...) focus moves to the new heading so keyboard and screen reader users
 * start at the top of what changed; the very first heading after load is left alone.
 */
export function PageHeading({ children, id, className }: { children: ReactNode; id?: string; className?: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  const brand = useSiteInfo()?.brandName;
  useEffect(() => {
    if (firstHeading) {
      firstHeading = false;
      return;
    }
    ref.current?.focus();
  }, []);
  useEffect(() => {
    const text = ref.current?.textContent?.trim();
    if (text) document.title = brand ? `${text} | ${brand}` : text;
  }, [children, brand]);
  return (
    <h1 ref={ref} id={id} tabIndex={-1} className={className ?? 'page-title'}>
      {children}
    </h1>
  );
}
