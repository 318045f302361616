import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { navigate } from '../app/router';

/**
 * A link to a page of the app: a real `<a href>` (it can be opened in a new tab, copied, read as a
 * link), followed inside the app on a plain click.
 */
export function AppLink({ to, onClick, ...rest }: { to: string } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'>) {
  const follow = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={follow} {...rest} />;
}
