/**
 * One error shape for the whole API: `{ error, message }` with a 4xx or 5xx status.
 * Anything thrown that is not a client error becomes a 500 with a generic message (logged),
 * except a database that does not answer (503) and a full disk (507): server/db/failure.ts.
 */
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { RETRY_AFTER_S, storageFailure } from '../db/failure';

export interface ErrorBody {
  error: string;
  message: string;
}

export class HttpError extends Error {
  constructor(readonly statusCode: number, message: string) {
    super(message);
    this.name = 'HttpError';
  }
}

export function errorBody(statusCode: number, message: string): ErrorBody {
  return { error: STATUS_CODES[statusCode] ?? 'Error', message };
}

export function sendError(reply: FastifyReply, statusCode: number, message: string): FastifyReply {
  return reply.code(statusCode).header('cache-control', 'no-store').send(errorBody(statusCode, message));
}

/**
 * The same `{ error, message }` shape with a machine-readable code instead of the HTTP reason
 * (`conflict`, `not_found`) and extra fields beside it (the conflicting marker).
 */
export function sendErrorCode(reply: FastifyReply, statusCode: number, code: string, message: string, extra: Record<string, unknown> = {}): FastifyReply {
  return reply.code(statusCode).header('cache-control', 'no-store').send({ ...extra, error: code, message });
}

export function errorHandler(error: FastifyError | HttpError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  // A database that does not answer or a full disk: said as such (503 / 507), logged as one line
  // with the real cause (server/db/failure.ts), not a 500 with a stack per request.
  const failure = storageFailure(error);
  if (failure) {
    request.log.error({ code: failure.code, reason: error.message }, `request failed: ${failure.reason}`);
    if (failure.status === 503) reply.header('retry-after', String(RETRY_AFTER_S));
    return sendError(reply, failure.status, failure.message);
  }
  const raw = (error as { statusCode?: unknown }).statusCode;
  const status = typeof raw === 'number' && raw >= 400 && raw < 600 ? raw : 500;
  if (status >= 500) {
    request.log.error({ err: error }, 'request failed');
    return sendError(reply, status, status === 500 ? 'internal server error' : error.message);
  }
  return sendError(reply, status, error.message || (STATUS_CODES[status] ?? 'request error'));
}
