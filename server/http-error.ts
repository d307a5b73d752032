// One way to fail a request with a status: Fastify's error handler answers `statusCode` with
// {statusCode, error, message}. Routes throw these instead of building replies by hand.
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}
