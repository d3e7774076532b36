import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ngBody } from './api-error.js';

/**
 * Failures Fastify answers before routing (a malformed %-escape, an overlong path part) get the
 * NG body and a request id like every other answer, instead of Fastify's own error shape.
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const message =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? 'a part of the path is too long'
      : 'the path is not a valid URL (malformed percent-encoding)';
  void reply.code(400).header('x-request-id', request.id).send(ngBody(message));
}

const CLIENT_ERRORS: Record<string, { status: number; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: 'the request headers are too large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'the request took too long to arrive' },
};

/**
 * Requests Node's HTTP parser refuses (bytes not allowed in a request line or header, headers
 * over the size limit) are answered on the socket with the NG body, then the connection closes.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
  const { status, message } = CLIENT_ERRORS[error.code ?? ''] ?? {
    status: 400,
    message: 'the request is not valid HTTP',
  };
  const body = JSON.stringify(ngBody(message));
  socket.end(
    `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'}\r\n` +
      `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
      `x-request-id: ${randomUUID()}\r\nconnection: close\r\n\r\n${body}`,
  );
}
