import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type SerializerFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>['buildSerializer'];

/**
 * Fastify's own response serializers (fast-json-stringify), each compiled on the first response
 * it writes rather than when its route is registered: Fastify compiles every status of every route
 * at start (HEAD routes included), a hundred functions and a few MB that an idle service never
 * uses (docs/operations.md, Memory). The serializer is the one Fastify would have compiled.
 */
export const lazySerializers: SerializerFactory = (externalSchemas, options) => {
  const compile = SerializerSelector()(externalSchemas, options);
  return (route) => {
    let serializer: ((doc: unknown) => string) | undefined;
    return (doc: unknown) => (serializer ??= compile(route))(doc);
  };
};
