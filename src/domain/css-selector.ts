/**
 * The CSS selectors a search service may give to pick a page's main content or leave parts out
 * (docs/reference/site-search.md, Content selectors): type, `*`, `#id`, `.class`, attribute
 * selectors (`[a]`, `[a=v]`, `[a~=v]`, `[a|=v]`, `[a^=v]`, `[a$=v]`, `[a*=v]`), descendant and
 * child combinators, and comma-separated lists. Matched while a page is parsed as a stream, so
 * only what an element and its ancestors tell can be asked (no sibling or pseudo-classes).
 */

interface AttributeTest {
  name: string;
  operator: '' | '=' | '~=' | '|=' | '^=' | '$=' | '*=';
  value: string;
}

interface Compound {
  /** Lower-case element name, or undefined for any. */
  tag: string | undefined;
  ids: string[];
  classes: string[];
  attributes: AttributeTest[];
}

/**
 * A complex selector right to left: the subject first, each compound with the combinator
 * between it and the compound to its left (undefined for the leftmost).
 */
type Complex = { compound: Compound; combinator: ' ' | '>' | undefined }[];

/** A parsed selector list. */
export interface SelectorList {
  readonly alternatives: readonly Complex[];
}

/** An element as the stream parser sees it. */
export interface ElementView {
  name: string;
  attributes: Readonly<Record<string, string>>;
}

export class SelectorSyntaxError extends Error {
  override name = 'SelectorSyntaxError';
}

const IDENT = /^-?[_a-zA-Z\u00a0-\uffff][-_a-zA-Z0-9\u00a0-\uffff]*/;
const UNSUPPORTED = /^[:+~]/;

/** Parses a selector list; a SelectorSyntaxError says what is wrong and where. */
export function parseSelectorList(source: string): SelectorList {
  const alternatives: Complex[] = [];
  let rest = source.trim();
  if (rest === '') throw new SelectorSyntaxError('is empty');
  let complex: Complex = [];
  let combinator: ' ' | '>' | undefined;
  const fail = (reason: string): never => {
    throw new SelectorSyntaxError(`${reason} at "${rest.slice(0, 20)}"`);
  };
  while (rest !== '') {
    const compound: Compound = { tag: undefined, ids: [], classes: [], attributes: [] };
    let any = false;
    const tag = /^(\*|[a-zA-Z][a-zA-Z0-9-]*)/.exec(rest);
    if (tag) {
      compound.tag = tag[1] === '*' ? undefined : tag[1]!.toLowerCase();
      rest = rest.slice(tag[0].length);
      any = true;
    }
    for (;;) {
      if (rest.startsWith('#') || rest.startsWith('.')) {
        const name = IDENT.exec(rest.slice(1));
        if (!name) fail(`expected a name after "${rest[0]}"`);
        (rest.startsWith('#') ? compound.ids : compound.classes).push(name![0]);
        rest = rest.slice(1 + name![0].length);
      } else if (rest.startsWith('[')) {
        const match =
          /^\[\s*([-_a-zA-Z0-9:]+)\s*(?:([~|^$*]?=)\s*(?:"([^"]*)"|'([^']*)'|([-_a-zA-Z0-9]+))\s*)?\]/.exec(
            rest,
          );
        if (!match) fail('expected an attribute selector like [name="value"]');
        compound.attributes.push({
          name: match![1]!.toLowerCase(),
          operator: (match![2] ?? '') as AttributeTest['operator'],
          value: match![3] ?? match![4] ?? match![5] ?? '',
        });
        rest = rest.slice(match![0].length);
      } else break;
      any = true;
    }
    if (!any)
      fail(
        UNSUPPORTED.test(rest)
          ? 'pseudo-classes and sibling combinators are not supported'
          : 'expected a selector',
      );
    complex.unshift({ compound, combinator });
    const separator = /^\s*([>,])?\s*/.exec(rest)!;
    const hadSpace = separator[0].length > 0;
    rest = rest.slice(separator[0].length);
    if (separator[1] === ',') {
      alternatives.push(complex);
      complex = [];
      combinator = undefined;
      if (rest === '') fail('expected a selector after ","');
    } else if (separator[1] === '>') {
      combinator = '>';
      if (rest === '') fail('expected a selector after ">"');
    } else if (hadSpace && rest !== '') combinator = ' ';
    else if (rest !== '')
      fail(
        UNSUPPORTED.test(rest)
          ? 'pseudo-classes and sibling combinators are not supported'
          : 'unexpected character',
      );
  }
  alternatives.push(complex);
  return { alternatives };
}

/** Whether `element`, inside `ancestors` (outermost first), matches the list. */
export function matchesSelector(
  list: SelectorList,
  element: ElementView,
  ancestors: readonly ElementView[],
): boolean {
  return list.alternatives.some((complex) =>
    matchesComplex(complex, 0, element, ancestors, ancestors.length),
  );
}

function matchesComplex(
  complex: Complex,
  step: number,
  element: ElementView,
  ancestors: readonly ElementView[],
  depth: number,
): boolean {
  const { compound, combinator } = complex[step]!;
  if (!matchesCompound(compound, element)) return false;
  if (step + 1 === complex.length) return true;
  if (combinator === '>') {
    return depth > 0 && matchesComplex(complex, step + 1, ancestors[depth - 1]!, ancestors, depth - 1);
  }
  for (let at = depth - 1; at >= 0; at -= 1) {
    if (matchesComplex(complex, step + 1, ancestors[at]!, ancestors, at)) return true;
  }
  return false;
}

function matchesCompound(compound: Compound, element: ElementView): boolean {
  if (compound.tag !== undefined && compound.tag !== element.name) return false;
  const attributes = element.attributes;
  if (compound.ids.some((id) => attributes.id !== id)) return false;
  if (compound.classes.length > 0) {
    const classes = (attributes.class ?? '').split(/\s+/);
    if (compound.classes.some((name) => !classes.includes(name))) return false;
  }
  return compound.attributes.every((test) => matchesAttribute(test, attributes[test.name]));
}

function matchesAttribute(test: AttributeTest, actual: string | undefined): boolean {
  if (actual === undefined) return false;
  switch (test.operator) {
    case '':
      return true;
    case '=':
      return actual === test.value;
    case '~=':
      return actual.split(/\s+/).includes(test.value);
    case '|=':
      return actual === test.value || actual.startsWith(`${test.value}-`);
    case '^=':
      return test.value !== '' && actual.startsWith(test.value);
    case '$=':
      return test.value !== '' && actual.endsWith(test.value);
    case '*=':
      return test.value !== '' && actual.includes(test.value);
  }
}
