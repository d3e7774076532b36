/**
 * Mounts a widget into an element (docs/reference/widget.md, Embedding): an open shadow root on
 * the host element holds the search box and the results panel (or the panel goes into the shadow
 * root of `resultsTarget`), styled by one shared stylesheet.
 */
import { parseServiceRef, SiteSearchClient } from '../client/index.js';
import { Controller } from './controller.js';
import { el } from './dom.js';
import { type MountOptions, resolveOptions, type WidgetOptions } from './options.js';
import { PanelView } from './panel-view.js';
import { adoptStyles } from './styles.js';
import { SuggestBox } from './suggest-box.js';
import { textsFor } from './texts.js';

export interface WidgetInstance {
  host: HTMLElement;
  options: WidgetOptions;
  client: SiteSearchClient | null;
  /** Searches for `q` as if the visitor had typed it. */
  search(q: string): void;
}

function shadowOf(host: HTMLElement, layout: string): { shadow: ShadowRoot; root: HTMLElement } {
  if (host.shadowRoot !== null) throw new Error('KumoSearch.mount: the element already holds a widget');
  const shadow = host.attachShadow({ mode: 'open' });
  adoptStyles(shadow);
  host.classList.add('kumo-search');
  host.setAttribute('data-state', 'idle');
  const root = el('div', 'root', { class: layout, lang: '' });
  shadow.appendChild(root);
  return { shadow, root };
}

/** Mounts a widget in `host` with `given` options; `scriptOrigin` is where the script came from. */
export function mountWidget(host: HTMLElement, given: MountOptions, scriptOrigin: string): WidgetInstance {
  const options = resolveOptions(given, scriptOrigin, host);
  const { root } = shadowOf(host, options.layout);
  root.setAttribute('lang', options.lang);
  const texts = textsFor(options.lang, options.texts);
  let client: SiteSearchClient | null = null;
  let problem = options.problem;
  try {
    if (options.service === '')
      problem ??= 'data-service is missing; write it as contract/group/service, e.g. "1/1/1"';
    else parseServiceRef(options.service);
    if (problem === null)
      client = new SiteSearchClient({
        baseUrl: options.api,
        service: options.service,
        transport: options.transport,
      });
  } catch (error) {
    problem ??= `data-${(error as Error).message}`;
  }
  const hosts = [host];
  const panelParent =
    options.resultsTarget === null ? root : shadowOf(options.resultsTarget, options.layout).root;
  if (options.resultsTarget !== null) {
    panelParent.setAttribute('lang', options.lang);
    hosts.push(options.resultsTarget);
  }
  const controller = new Controller(client as SiteSearchClient, options, hosts);
  const panel = new PanelView(texts, options.lang, controller);
  const box = new SuggestBox({
    texts,
    placeholder: options.placeholder ?? texts.placeholder,
    suggestCount: client === null ? 0 : options.suggestCount,
    suggest: async (q, signal) =>
      (
        await (client as SiteSearchClient).suggest(q, { count: options.suggestCount, signal })
      ).suggestions.map((suggestion) => suggestion.word),
    onSubmit: (q) => (client === null ? undefined : controller.submit(q)),
  });
  controller.box = box;
  controller.panel = panel;
  root.appendChild(box.form);
  panelParent.appendChild(panel.element);
  if (client === null || problem !== null) {
    panel.error('config', problem ?? '');
    for (const element of hosts) element.setAttribute('data-state', 'error');
  } else controller.start();
  return { host, options, client, search: (q) => controller.submit(q) };
}
