/**
 * What the widget tests do in the page as a visitor would: find the widget's parts (the `part`
 * contract of docs/reference/widget.md; Playwright's CSS locators pierce the open shadow root),
 * wait for its state, log the API requests the page sends, drive an IME composition through the
 * DevTools protocol and run axe-core.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { BrowserContext, Locator, Page, Route } from 'playwright-core';

export type WidgetState = 'idle' | 'loading' | 'ready' | 'empty' | 'error';

interface LinkLike {
  getAttribute(name: string): string | null;
  querySelector(selector: string): LinkLike | null;
}

/** What the page functions below touch of a DOM element (the tests compile without the DOM lib). */
interface HostElement {
  getAttribute(name: string): string | null;
  shadowRoot: { querySelector(selector: string): { textContent: string | null } | null } | null;
}

/** Holds the search answers whose request matches `held` until `release` is called. */
export async function holdSearches(page: Page, held: (url: URL) => boolean) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/search\?/, async (route: Route) => {
    if (held(new URL(route.request().url()))) await released;
    await route.continue().catch(() => undefined);
  });
  return release;
}

export class Widget {
  /** The host element (class `kumo-search`). */
  readonly host: Locator;

  /** The `index`-th widget of the page (0 = first). */
  constructor(
    readonly page: Page,
    index = 0,
  ) {
    this.host = page.locator('.kumo-search').nth(index);
  }

  /** The elements carrying `name` among their parts. */
  part(name: string): Locator {
    return this.host.locator(`[part~="${name}"]`);
  }

  get input(): Locator {
    return this.part('input');
  }

  /** Waits until `data-state` is one of `states` (default: a settled answer). */
  async settled(states: readonly WidgetState[] = ['ready', 'empty', 'error']): Promise<WidgetState> {
    const handle = await this.host.elementHandle();
    assert.ok(handle, 'no widget host (.kumo-search) on the page');
    await this.page.waitForFunction(
      ([element, wanted]) =>
        wanted.includes((element as unknown as HostElement).getAttribute('data-state') ?? ''),
      [handle, states] as const,
    );
    // The results are dimmed while a search is in flight and fade back in (0.15 s): what a person
    // sees, and what axe-core measures contrast on, is a settled answer once the fade has ended.
    await this.page.waitForFunction((element) => {
      const scope = globalThis as unknown as { getComputedStyle(node: unknown): { opacity: string } };
      const host = element as unknown as HostElement;
      if (host.getAttribute('data-state') === 'loading') return true;
      const main = host.shadowRoot?.querySelector('.main');
      return main === null || main === undefined || scope.getComputedStyle(main).opacity === '1';
    }, handle);
    return (await this.host.getAttribute('data-state')) as WidgetState;
  }

  /** Types `query` into the box and submits it with Enter; waits for the answer. */
  async search(query: string): Promise<WidgetState> {
    await this.input.fill(query);
    await this.input.press('Enter');
    await this.page.waitForFunction(
      ([element, text]) => {
        const status =
          (element as unknown as HostElement).shadowRoot?.querySelector('[part~="status"]')?.textContent ??
          '';
        const state = (element as unknown as HostElement).getAttribute('data-state');
        return (state === 'ready' && status.includes(text)) || state === 'empty' || state === 'error';
      },
      [await this.host.elementHandle(), query] as const,
    );
    return this.settled();
  }

  /** Waits until the first result's title is `title` (a new page of results has rendered). */
  async waitForFirstTitle(title: string): Promise<void> {
    await this.page.waitForFunction(
      ([host, wanted]) =>
        (
          host as unknown as { shadowRoot: { querySelector(s: string): { textContent: string } | null } }
        ).shadowRoot
          .querySelector('[part~="result-title"]')
          ?.textContent?.trim() === wanted,
      [await this.host.elementHandle(), title] as const,
    );
  }

  /** The visible texts of the result titles, in order. */
  async resultTitles(): Promise<string[]> {
    return this.part('result-title').allTextContents();
  }

  /** The addresses the result titles link to, in order. */
  async resultHrefs(): Promise<string[]> {
    return this.part('result-title').evaluateAll((links) =>
      links.map((link) => {
        const element = link as unknown as LinkLike;
        return element.getAttribute('href') ?? element.querySelector('a')?.getAttribute('href') ?? '';
      }),
    );
  }

  /**
   * Types `text` key by key, as a visitor does, and answers the suggestions shown once the list
   * shows the answer for the whole text. A slow machine may let an earlier keystroke's answer show
   * first and be replaced a moment later; waiting for the last answer keeps a test from acting on
   * a list that is about to change. The page must not have asked for this text before (the
   * widget's cache would answer without a request).
   */
  async typeForSuggestions(text: string): Promise<string[]> {
    const q = ((await this.input.inputValue()) + text).trim();
    const answered = this.page.waitForResponse((response) => {
      const url = new URL(response.url());
      return url.pathname.endsWith('/suggest') && url.searchParams.get('q') === q;
    });
    await this.input.pressSequentially(text);
    const body = await (await answered).text();
    // JSON or JSONP: the object between the first and the last brace.
    const answer = JSON.parse(body.slice(body.indexOf('{'), body.lastIndexOf('}') + 1)) as {
      suggestions: { word: string }[];
    };
    const words = answer.suggestions.map((suggestion) => suggestion.word);
    assert.ok(words.length > 0, `the service suggests nothing for "${q}"`);
    await this.page.waitForFunction(
      ([host, expected]) => {
        const root = (
          host as unknown as {
            shadowRoot: {
              querySelectorAll(s: string): ArrayLike<{ textContent: string | null }>;
            };
          }
        ).shadowRoot;
        const shown = Array.from(root.querySelectorAll('[part~="option"]'), (option) =>
          (option.textContent ?? '').trim(),
        );
        return shown.length > 0 && shown.every((word, index) => word === expected[index]);
      },
      [await this.host.elementHandle(), words] as const,
    );
    await this.part('option').first().waitFor({ state: 'visible' });
    return (await this.part('option').allTextContents()).map((option) => option.trim());
  }

  async statusText(): Promise<string> {
    return ((await this.part('status').textContent()) ?? '').trim();
  }
}

/** One logged request of the page to the site search API. */
export interface ApiRequest {
  endpoint: string;
  q: string | null;
  url: URL;
  at: number;
}

/** Logs the page's requests to the site search API (fetch and JSONP alike). */
export class RequestLog {
  readonly requests: ApiRequest[] = [];

  constructor(page: Page) {
    page.on('request', (request) => {
      const url = new URL(request.url());
      const match = /\/finder_service\/documents\/\d+\/\d+\/\d+\/([a-z_]+)$/.exec(url.pathname);
      if (match)
        this.requests.push({ endpoint: match[1]!, q: url.searchParams.get('q'), url, at: Date.now() });
    });
  }

  of(endpoint: string): ApiRequest[] {
    return this.requests.filter((request) => request.endpoint === endpoint);
  }
}

/**
 * An IME composition through the DevTools protocol, as a Japanese input method drives the page:
 * `compose` sets the marked text (compositionstart/update), `commit` inserts the final text
 * (compositionend), and `enterWhileComposing` sends the Enter key that an IME consumes, as a
 * keydown with keyCode 229 and no keypress.
 */
export async function imeSession(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  return {
    async compose(text: string): Promise<void> {
      await cdp.send('Input.imeSetComposition', {
        text,
        selectionStart: text.length,
        selectionEnd: text.length,
      });
    },
    async enterWhileComposing(): Promise<void> {
      for (const type of ['rawKeyDown', 'keyUp'] as const) {
        await cdp.send('Input.dispatchKeyEvent', {
          type,
          key: 'Enter',
          code: 'Enter',
          windowsVirtualKeyCode: 229,
          nativeVirtualKeyCode: 229,
        });
      }
    },
    async commit(text: string): Promise<void> {
      await cdp.send('Input.insertText', { text });
    },
    detach: () => cdp.detach(),
  };
}

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core in the page (injected through the DevTools protocol, so a strict CSP does not
 * stop it) and answers the violations of impact serious or critical.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    interface AxeResult {
      violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
    }
    const scope = globalThis as unknown as {
      axe: { run(context: unknown, options: object): Promise<AxeResult> };
      document: unknown;
    };
    const result = await scope.axe.run(scope.document, { resultTypes: ['violations'] });
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        targets: violation.nodes.map((node) => JSON.stringify(node.target)),
      }));
  });
}

/** Fails with every violation spelled out. */
export function assertNoSeriousViolations(violations: readonly AxeViolation[], where: string): void {
  assert.deepEqual(
    violations.map(
      (violation) =>
        `${violation.impact} ${violation.id}: ${violation.help} at ${violation.targets.join(', ')}`,
    ),
    [],
    `axe-core found serious violations on ${where}`,
  );
}
