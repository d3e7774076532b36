/**
 * TypeScript declarations from the JSON Schemas (TypeBox) of the site search API's answers, for
 * the published declaration file of the typed client (docs/reference/widget.md, Typed client).
 * Covers what those schemas use: objects, arrays, strings, numbers, booleans, literal unions and
 * one recursive `$ref`.
 */

interface JsonSchema {
  type?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  const?: string | number | boolean;
  $id?: string;
  $ref?: string;
}

export interface NamedSchema {
  name: string;
  schema: unknown;
  description: string;
}

/** `export interface Name { ... }` for each schema; a schema met again inside another is named. */
export function declarationsOf(named: readonly NamedSchema[]): string {
  const names = new Map<unknown, string>();
  const ids = new Map<string, string>();
  for (const { name, schema } of named) {
    names.set(schema, name);
    const id = (schema as JsonSchema).$id;
    if (id !== undefined) ids.set(id, name);
  }
  const typeOf = (schema: JsonSchema, indent: string, root: boolean): string => {
    const name = names.get(schema);
    if (name !== undefined && !root) return name;
    if (schema.$ref !== undefined) {
      const target = ids.get(schema.$ref);
      if (target === undefined) throw new Error(`no declaration named for $ref ${schema.$ref}`);
      return target;
    }
    if (schema.const !== undefined) return JSON.stringify(schema.const);
    if (schema.anyOf !== undefined)
      return schema.anyOf.map((member) => typeOf(member, indent, false)).join(' | ');
    switch (schema.type) {
      case 'string':
        return 'string';
      case 'integer':
      case 'number':
        return 'number';
      case 'boolean':
        return 'boolean';
      case 'array': {
        const item = typeOf(schema.items ?? {}, indent, false);
        return /[ |]/.test(item) && !item.startsWith('{') ? `(${item})[]` : `${item}[]`;
      }
      case 'object': {
        const required = new Set(schema.required ?? []);
        const inner = `${indent}  `;
        const members = Object.entries(schema.properties ?? {}).map(([key, member]) => {
          const doc = member.description === undefined ? '' : `${inner}/** ${member.description} */\n`;
          const optional = required.has(key) ? '' : '?';
          return `${doc}${inner}${key}${optional}: ${typeOf(member, inner, false)};\n`;
        });
        return `{\n${members.join('')}${indent}}`;
      }
      default:
        return 'unknown';
    }
  };
  return named
    .map(({ name, schema, description }) => {
      const body = typeOf(schema as JsonSchema, '', true);
      return `/** ${description} */\nexport interface ${name} ${body}\n`;
    })
    .join('\n');
}
