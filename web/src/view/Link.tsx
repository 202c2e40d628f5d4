// An in-app link: a real anchor (keyboard, middle click, copy link) that navigates in place.
import type { ComponentChildren } from 'preact';
import { navigate, routeHref, currentRoute, type Route } from '../route';

export function Link({ to, children, class: className, current }:
  { to: Route; children: ComponentChildren; class?: string; current?: boolean }) {
  const sameLog = to.log !== null && to.log === currentRoute().log;
  return (
    <a class={className} href={routeHref(to, sameLog ? location.search : '')} aria-current={current ? 'page' : undefined}
       onClick={(event) => {
         if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
         event.preventDefault();
         navigate(to);
       }}>
      {children}
    </a>
  );
}
