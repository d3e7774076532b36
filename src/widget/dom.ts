/**
 * Builds the widget's elements by code (docs/reference/widget.md, Parts): texts go in as text
 * nodes only, never as markup, so nothing an API answer holds can become an element or a script.
 */

export type Child = Node | string | null | undefined | false;

/** `<tag part="…" attr…>children</tag>`; a `null`/`false` child is skipped. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  part: string | null,
  attributes: Record<string, string> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (part !== null) element.setAttribute('part', part);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  append(element, children);
  return element;
}

export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

/** Replaces every child of `parent`. */
export function fill(parent: Node, ...children: Child[]): void {
  while (parent.firstChild !== null) parent.removeChild(parent.firstChild);
  append(parent, children);
}

export function show(element: HTMLElement | SVGElement, visible: boolean): void {
  if (visible) element.removeAttribute('hidden');
  else element.setAttribute('hidden', '');
}

/** A small decorative icon (aria-hidden), drawn from one SVG path. */
export function icon(path: string): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const shape = document.createElementNS(ns, 'path');
  shape.setAttribute('d', path);
  svg.appendChild(shape);
  return svg;
}

export const SEARCH_ICON =
  'M10.5 4a6.5 6.5 0 1 0 4 11.6l4.2 4.2 1.4-1.4-4.2-4.2A6.5 6.5 0 0 0 10.5 4zm0 2a4.5 4.5 0 1 1 0 9 4.5 4.5 0 0 1 0-9z';
export const CLEAR_ICON =
  'M6.4 5 5 6.4l5.6 5.6L5 17.6 6.4 19l5.6-5.6 5.6 5.6 1.4-1.4-5.6-5.6L19 6.4 17.6 5 12 10.6z';
