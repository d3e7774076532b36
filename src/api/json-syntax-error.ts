/** Where a JSON text stops being valid JSON, and why. */
export interface JsonSyntaxError {
  /** 1-based line; lines end at "\n" (a "\r\n" ending counts once). */
  line: number;
  /** 1-based column in characters (code points) within the line. */
  column: number;
  /** What is wrong there: `expected ',' or '}' after a property value, found '"'` */
  problem: string;
}

/**
 * The first place where `text` breaks the JSON grammar (RFC 8259), or undefined when it is valid
 * JSON. `JSON.parse` says where only for some errors and in words that change between Node
 * versions, so a 400 for a malformed body (docs/api.md, Common rules, Errors) is located by this
 * scanner instead. It keeps its own stack rather than recursing, so a body of a million `[` stays
 * within the call stack.
 */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const failure = new JsonScanner(text).firstFailure();
  if (failure === undefined) return undefined;
  const at = lineAndColumn(text, failure.offset);
  let problem = failure.problem;
  if (failure.previousValueEnd !== undefined) {
    // A comma missing at the end of a line shows only at the next line's first token: say where
    // the value it should have followed ends, which is where the comma belongs.
    const end = lineAndColumn(text, failure.previousValueEnd - 1);
    if (end.line !== at.line)
      problem += ` (the value before it ends at line ${end.line}, column ${end.column})`;
  }
  return { ...at, problem };
}

interface Failure {
  offset: number;
  problem: string;
  /** Offset just past the value after which a separator was expected. */
  previousValueEnd?: number;
}

/** What the scanner is looking for next. */
type Expecting = 'value' | 'first-value' | 'key' | 'first-key' | 'colon' | 'after-value';

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const NUMBER_LIKE = /[-+.\deE]+/y;
const WORD = /[A-Za-z0-9_$]+/y;
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const ANY_VALUE = 'a value (object, array, string in double quotes, number, true, false or null)';

class JsonScanner {
  private offset = 0;
  private readonly containers: ('object' | 'array')[] = [];

  constructor(private readonly text: string) {}

  firstFailure(): Failure | undefined {
    let expecting: Expecting = 'value';
    for (;;) {
      const valueEnd = this.offset;
      this.skipWhitespace();
      const container = this.containers[this.containers.length - 1];
      if (this.offset >= this.text.length) {
        if (expecting === 'after-value' && container === undefined) return undefined;
        return { offset: this.offset, problem: `the JSON ends early: expected ${this.next(expecting)}` };
      }
      const c = this.text.charAt(this.offset);
      switch (expecting) {
        case 'value':
        case 'first-value': {
          if (expecting === 'first-value' && c === ']') {
            this.close();
            expecting = 'after-value';
            break;
          }
          const failure = this.value(c);
          if (failure !== undefined) return failure;
          expecting = c === '{' ? 'first-key' : c === '[' ? 'first-value' : 'after-value';
          break;
        }
        case 'key':
        case 'first-key': {
          if (expecting === 'first-key' && c === '}') {
            this.close();
            expecting = 'after-value';
            break;
          }
          if (c !== '"') return this.unexpected('a property name in double quotes');
          const failure = this.string();
          if (failure !== undefined) return failure;
          expecting = 'colon';
          break;
        }
        case 'colon':
          if (c !== ':') return this.unexpected("':' after a property name");
          this.offset++;
          expecting = 'value';
          break;
        case 'after-value':
          if (container === undefined) {
            return {
              offset: this.offset,
              problem: `unexpected ${this.shown()} after the end of the JSON value`,
            };
          }
          if (c === ',') {
            this.offset++;
            expecting = container === 'object' ? 'key' : 'value';
          } else if (c === (container === 'object' ? '}' : ']')) {
            this.close();
          } else {
            return { ...this.unexpected(this.next('after-value')), previousValueEnd: valueEnd };
          }
          break;
      }
    }
  }

  /** Reads the value starting with `c`, or opens the object or array it starts. */
  private value(c: string): Failure | undefined {
    if (c === '{' || c === '[') {
      this.containers.push(c === '{' ? 'object' : 'array');
      this.offset++;
      return undefined;
    }
    if (c === '"') return this.string();
    if (c === '-' || (c >= '0' && c <= '9')) return this.number();
    for (const literal of ['true', 'false', 'null']) {
      if (this.text.startsWith(literal, this.offset)) {
        this.offset += literal.length;
        return undefined;
      }
    }
    return this.unexpected(ANY_VALUE);
  }

  private string(): Failure | undefined {
    const start = this.offset;
    let at = start + 1;
    while (at < this.text.length) {
      const c = this.text.charAt(at);
      if (c === '"') {
        this.offset = at + 1;
        return undefined;
      }
      if (c === '\\') {
        const escaped = this.text.charAt(at + 1);
        if (escaped === 'u') {
          if (!/^[0-9A-Fa-f]{4}$/.test(this.text.slice(at + 2, at + 6))) {
            return { offset: at, problem: 'a \\u escape needs four hexadecimal digits' };
          }
          at += 6;
          continue;
        }
        if (!ESCAPES.has(escaped)) {
          return { offset: at, problem: `invalid escape sequence '\\${escaped}' in a string` };
        }
        at += 2;
        continue;
      }
      if (c < ' ') {
        return {
          offset: at,
          problem: 'a control character (such as a line break or tab) inside a string; escape it (\\n, \\t)',
        };
      }
      at++;
    }
    return { offset: start, problem: 'a string that starts here is never closed' };
  }

  private number(): Failure | undefined {
    NUMBER_LIKE.lastIndex = this.offset;
    const token = NUMBER_LIKE.exec(this.text)?.[0] ?? '';
    NUMBER.lastIndex = this.offset;
    if (NUMBER.exec(this.text)?.[0] !== token) {
      return { offset: this.offset, problem: `'${excerpt(token)}' is not a valid JSON number` };
    }
    this.offset += token.length;
    return undefined;
  }

  private close(): void {
    this.containers.pop();
    this.offset++;
  }

  private skipWhitespace(): void {
    while (this.offset < this.text.length && ' \t\n\r'.includes(this.text.charAt(this.offset))) this.offset++;
  }

  /** A failure at the current offset: `expected <what>, found '<what is there>'`. */
  private unexpected(expected: string): Failure {
    return { offset: this.offset, problem: `expected ${expected}, found ${this.shown()}` };
  }

  /** What may come next, in words: `',' or '}' after a property value`. */
  private next(expecting: Expecting): string {
    const container = this.containers[this.containers.length - 1];
    switch (expecting) {
      case 'value':
      case 'first-value':
        return 'a value';
      case 'key':
      case 'first-key':
        return 'a property name';
      case 'colon':
        return "':'";
      case 'after-value':
        return container === 'object'
          ? "',' or '}' after a property value"
          : "',' or ']' after an array element";
    }
  }

  /** The character at the current offset (or the word it starts) for a message. */
  private shown(): string {
    WORD.lastIndex = this.offset;
    const word = WORD.exec(this.text)?.[0];
    if (word !== undefined) return `'${excerpt(word)}'`;
    const c = String.fromCodePoint(this.text.codePointAt(this.offset) ?? 0);
    if (c < ' ') return `the control character U+${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
    return c === "'" ? `"'"` : `'${c}'`;
  }
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) {
    line++;
    lineStart = at + 1;
  }
  let column = 1;
  for (let at = lineStart; at < offset; at++) {
    // The second half of a surrogate pair belongs to the character the first half starts.
    const code = text.charCodeAt(at);
    if (code < 0xdc00 || code > 0xdfff) column++;
  }
  return { line, column };
}

function excerpt(value: string): string {
  return value.length <= 30 ? value : `${value.slice(0, 27)}...`;
}
