/**
 * The frame of every console page: its title (also the document's), a line of actions, and the
 * body. The heading takes the focus after a navigation, so a screen reader announces the page.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

export function Page(props: {
  title: string;
  /** Shown above the title: where the page is (contract and service group). */
  context?: ComponentChildren;
  actions?: ComponentChildren;
  children: ComponentChildren;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${props.title} · Kumo`;
    heading.current?.focus({ preventScroll: true });
  }, [props.title]);
  return (
    <div class="page">
      <header class="page-header">
        <div>
          {props.context !== undefined && <p class="page-context">{props.context}</p>}
          <h1 ref={heading} tabIndex={-1}>
            {props.title}
          </h1>
        </div>
        {props.actions !== undefined && <div class="page-actions">{props.actions}</div>}
      </header>
      {props.children}
    </div>
  );
}

/** A titled part of a page. */
export function Section(props: { title: string; actions?: ComponentChildren; children: ComponentChildren }) {
  return (
    <section class="section" aria-label={props.title}>
      <header class="section-header">
        <h2>{props.title}</h2>
        {props.actions !== undefined && <div class="section-actions">{props.actions}</div>}
      </header>
      {props.children}
    </section>
  );
}
