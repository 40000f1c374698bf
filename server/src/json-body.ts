/** Request bodies as the server reads them: JSON with every string cleaned, checked with a schema into field-by-field 422s. */
import { badRequest, unprocessable } from './problem.ts';
import { parseCleanJson } from '@ops-console/contract/clean-text';

export function parseJson(raw: string): unknown {
  try {
    return parseCleanJson(raw);
  } catch {
    throw badRequest('The body is not JSON.');
  }
}

export async function jsonBody(request: Request): Promise<unknown> {
  return parseJson(await request.text());
}

export function validate<T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } },
  value: unknown,
): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw unprocessable(
    'Some fields were not accepted.',
    result.error.issues.map((i) => ({ field: i.path.map(String).join('.') || 'body', message: i.message })),
  );
}
