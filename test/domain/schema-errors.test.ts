/**
 * Schema violations outside the HTTP layer (CLI, admin files) name the allowed values of a literal
 * or a union of literals, as the API does (docs/api.md, Common rules, Error messages).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { schemaFieldErrors } from '../../src/domain/schema-errors.js';
import { validateCrawlSetting } from '../../src/domain/validate-crawl-setting.js';

test('a literal (or null) names the one allowed value', () => {
  assert.deepEqual(
    validateCrawlSetting({
      seed_urls: ['https://www.example.com/'],
      authorizations: [{ type: 'DIGEST', user: 'u', password: 'p' }],
    }),
    [{ field: 'setting.authorizations[0].type', reason: 'must be "BASIC"' }],
  );
});

test('a union of literals names every allowed value, not only the first', () => {
  const compiled = TypeCompiler.Compile(
    Type.Object({
      file: Type.Union([Type.Literal('a.csv'), Type.Literal('b.tar'), Type.Null()]),
      size: Type.Union([Type.Literal(1), Type.Literal(2)]),
    }),
  );
  assert.deepEqual(schemaFieldErrors(compiled, { file: 'c.zip', size: 3 }, 'body'), [
    { field: 'body.file', reason: 'must be one of "a.csv", "b.tar"' },
    { field: 'body.size', reason: 'must be one of 1, 2' },
  ]);
});
