/**
 * Entry of the widget script (docs/reference/widget.md, Embedding). Each execution of the script
 * mounts one widget from its own script tag's `data-*` attributes, so two tags give two widgets;
 * the page gains one global, `KumoSearch`.
 */
import { SiteSearchClient } from '../client/index.js';
import { type MountOptions, optionsOfDataset } from './options.js';
import { mountWidget, type WidgetInstance } from './mount.js';

const VERSION = '1.0.0';

interface Namespace {
  version?: string;
  mount?: (element: HTMLElement | string, options: MountOptions) => WidgetInstance;
  SiteSearchClient?: typeof SiteSearchClient;
  instances?: WidgetInstance[];
  jsonp?: Record<string, (payload: unknown) => void>;
}

// Read while the script runs: afterwards document.currentScript is another script or null.
const script = document.currentScript as HTMLScriptElement | null;
const scriptOrigin = script?.src ? new URL(script.src, location.href).origin : location.origin;

const holder = window as unknown as { KumoSearch?: Namespace };
const namespace = (holder.KumoSearch ??= {});
const instances = (namespace.instances ??= []);
namespace.version = VERSION;
namespace.SiteSearchClient = SiteSearchClient;
namespace.jsonp ??= {};

/**
 * Two widgets writing the same URL parameters would overwrite each other's state: a widget
 * without a prefix of its own takes the first free one of `kumo_`, `kumo2_`, `kumo3_`, ... in
 * mount order (docs/reference/widget.md, URL state).
 */
function withFreePrefix(options: MountOptions): MountOptions {
  if (options.paramPrefix !== undefined) return options;
  const taken = new Set(instances.map((instance) => instance.options.paramPrefix));
  let prefix = 'kumo_';
  for (let number = 2; taken.has(prefix); number += 1) prefix = `kumo${number}_`;
  return { ...options, paramPrefix: prefix };
}

namespace.mount ??= (element, options) => {
  const host = typeof element === 'string' ? document.querySelector<HTMLElement>(element) : element;
  if (host === null) throw new Error(`KumoSearch.mount: "${String(element)}" matches no element`);
  const instance = mountWidget(host, withFreePrefix(options), scriptOrigin);
  instances.push(instance);
  return instance;
};

/** data-target, else a free #kumo-search, else a new element right after the script tag. */
function hostFor(tag: HTMLScriptElement): HTMLElement {
  const selector = tag.dataset.target;
  const target = selector ? document.querySelector<HTMLElement>(selector) : null;
  if (target !== null && target.shadowRoot === null) return target;
  const standard = document.getElementById('kumo-search');
  if (selector === undefined && standard !== null && standard.shadowRoot === null) return standard;
  const created = document.createElement('div');
  tag.after(created);
  return created;
}

function autoMount(tag: HTMLScriptElement): void {
  const instance = mountWidget(hostFor(tag), withFreePrefix(optionsOfDataset(tag)), scriptOrigin);
  instances.push(instance);
}

// A script tag without data-service only loads the namespace, for pages that call mount().
if (script !== null && (script.dataset.service !== undefined || script.dataset.target !== undefined)) {
  const tag = script;
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => autoMount(tag));
  else autoMount(tag);
}
