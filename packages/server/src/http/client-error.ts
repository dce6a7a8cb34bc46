import type { Socket } from 'node:net';
import { newRequestId } from '../store/ids.js';

/** Status lines of the answers Node's HTTP parser can call for. */
const REASONS: Record<number, string> = { 400: 'Bad Request', 413: 'Payload Too Large', 431: 'Request Header Fields Too Large' };

/**
 * Answers a request that Node's HTTP parser refused before the app saw it (malformed request
 * line or header, headers over the size limit) with the API's JSON error shape and an
 * X-Request-ID, instead of Node's bare 400/431. Sockets already gone or timed out are closed.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // As Node does: no answer once an answer on this socket has begun (it would corrupt it).
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW' ? 413 : 400;
  const requestId = newRequestId();
  const message =
    status === 431
      ? "The request headers are over the server's size limit"
      : status === 413
        ? "The request body framing is over the server's size limit"
        : 'The request is not valid HTTP (a malformed request line or header)';
  const type = status === 413 ? 'payload_too_large' : 'invalid_request';
  const body = JSON.stringify({ error: { type, message, request_id: requestId, details: { field: 'headers' } } });
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-ID: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
}
