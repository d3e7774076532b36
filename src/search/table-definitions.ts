/**
 * Definitions in tables: reference pages define one item a row (a function table's signature,
 * an option table's name), the item written as code at the start of the row's first cell
 * (docs/design/search-engine.md, Search engine). Such a code element names what the row is about,
 * as a heading or a definition term does; a code element further into a cell, or in a later cell,
 * is a mention (a type, a value, an example).
 */

/** Longer code at the start of a cell is an example or a statement, not the name of an item. */
export const MAX_DEFINITION_WORDS = 4;

/** Per open table: the cells opened so far in its current row. */
interface TableState {
  cellsInRow: number;
}

/**
 * Follows the table structure of a page as its elements open and close (in document order) and
 * tells which text is a definition.
 */
export class TableDefinitions {
  private readonly tables: TableState[] = [];
  /** In the first cell of a row, before any of its text: a code element here is a definition. */
  private atCellStart = false;
  /** Depth of the open code element being read as a definition; -1 when none. */
  private definitionDepth = -1;
  private definition = '';

  /** An element opened; `depth` is the number of open elements before it. */
  open(name: string, depth: number): void {
    if (name === 'table') this.tables.push({ cellsInRow: 0 });
    const table = this.tables.at(-1);
    if (table === undefined) return;
    if (name === 'tr') table.cellsInRow = 0;
    else if (name === 'td' || name === 'th') {
      table.cellsInRow += 1;
      this.atCellStart = table.cellsInRow === 1;
    } else if (name === 'code' && this.atCellStart && this.definitionDepth < 0) {
      this.definitionDepth = depth;
      this.definition = '';
      this.atCellStart = false;
    }
  }

  /** Text read: ends the start of a cell; collected when inside a definition. */
  text(text: string): void {
    if (this.definitionDepth >= 0) this.definition += text;
    else if (/\S/.test(text)) this.atCellStart = false;
  }

  /**
   * An element closed at `depth` (as given to `open`): the definition it ends, whitespace
   * collapsed, when it is one and short enough to name an item.
   */
  close(name: string, depth: number): string | undefined {
    if (name === 'table') {
      this.tables.pop();
      this.atCellStart = false;
    }
    if (depth !== this.definitionDepth) return undefined;
    this.definitionDepth = -1;
    const definition = this.definition.replace(/\s+/g, ' ').trim();
    const words = definition.split(' ').length;
    return definition !== '' && words <= MAX_DEFINITION_WORDS ? definition : undefined;
  }
}
