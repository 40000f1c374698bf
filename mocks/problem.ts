import { HttpResponse } from 'msw';

export interface FieldProblem {
  field: string;
  message: string;
}

/** An RFC 9457 problem+json response, as the contract requires for every non-2xx body. */
export function problem(status: number, title: string, detail?: string, errors?: FieldProblem[]) {
  return HttpResponse.json(
    { type: 'about:blank', title, status, ...(detail ? { detail } : {}), ...(errors ? { errors } : {}) },
    { status, headers: { 'Content-Type': 'application/problem+json' } },
  );
}
