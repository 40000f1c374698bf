/** problem+json (RFC 9457) answers: every non-2xx of the server is one of these. */
export interface FieldError {
  field: string;
  message: string;
}

export class ProblemError extends Error {
  readonly status: number;
  readonly title: string;
  readonly detail: string | undefined;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;

  constructor(status: number, title: string, detail?: string, errors?: FieldError[], headers: Record<string, string> = {}) {
    super(detail ?? title);
    this.status = status;
    this.title = title;
    this.detail = detail;
    this.errors = errors;
    this.headers = headers;
  }
}

export function problemResponse(problem: ProblemError): Response {
  const body = { type: 'about:blank', title: problem.title, status: problem.status, detail: problem.detail, errors: problem.errors };
  return new Response(JSON.stringify(body), { status: problem.status, headers: { 'content-type': 'application/problem+json', ...problem.headers } });
}

export const badRequest = (detail: string, errors?: FieldError[]) => new ProblemError(400, 'Bad request', detail, errors);
export const notFound = (detail: string) => new ProblemError(404, 'Not found', detail);
export const unprocessable = (detail: string, errors?: FieldError[]) => new ProblemError(422, 'Unprocessable content', detail, errors);
