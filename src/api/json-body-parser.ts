import type { FastifyInstance } from 'fastify';
import { ApiError } from './api-error.js';
import { findJsonSyntaxError } from './json-syntax-error.js';

/**
 * Parses `application/json` bodies with Fastify's own parser (which also refuses `__proto__`
 * and `constructor.prototype` keys), but answers a malformed body with where it breaks: Fastify
 * says only that the body is not valid JSON (docs/api.md, Common rules, Errors).
 */
export function addJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    // With a callback the parser answers through it and returns nothing to wait for.
    void parseJson(request, text, (error, value) => {
      if (error && (error as { code?: string }).code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
        done(malformedBody(text), undefined);
      } else {
        done(error, value);
      }
    });
  });
}

function malformedBody(text: string): ApiError {
  // Fastify's parser skips a leading byte order mark; positions count from after it too.
  const found = findJsonSyntaxError(text.replace(/^\uFEFF/, ''));
  const reason = found
    ? `is not valid JSON at line ${found.line}, column ${found.column}: ${found.problem}`
    : 'must not contain "__proto__" or "constructor.prototype" keys';
  return new ApiError('invalid_input', `body: ${reason}`, [{ field: 'body', reason }]);
}
