/**
 * A console route's query string, read with that route's schema in the contract
 * (`ROUTE_QUERIES`): the handler gets typed values, and a value the schema refuses is a 400 that
 * names each parameter and says what it takes.
 */
import { toJSONSchema, type z } from 'zod/mini';
import { badRequest, type FieldError } from './problem.ts';

type QuerySchema = z.ZodMiniObject;
type Issue = z.core.$ZodIssue;

/** What a field's schema is, under its optional wrapper. */
const kindOf = (field: z.core.$ZodType | undefined): string | undefined => {
  const def = field?._zod.def;
  return def?.type === 'optional' ? (def as z.core.$ZodOptionalDef).innerType._zod.def.type : def?.type;
};

/**
 * An empty parameter counts as absent (`?status=` is no filter); the first of a repeated one
 * counts; whole numbers are numbers where the schema wants one. Unknown parameters are ignored.
 */
export function parseQuery<S extends QuerySchema>(schema: S, url: string): z.infer<S> {
  const shape = schema._zod.def.shape;
  const raw: Record<string, string | number> = {};
  const seen = new Set<string>();
  for (const [name, value] of new URL(url).searchParams) {
    if (seen.has(name)) continue;
    seen.add(name);
    if (value === '' || !(name in shape)) continue;
    raw[name] = kindOf(shape[name]) === 'number' && /^\d{1,15}$/.test(value) ? Number(value) : value;
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw refused(schema, parsed.error.issues);
}

/** One sentence for the whole query, one field error per parameter. */
function refused(schema: QuerySchema, issues: readonly Issue[]) {
  const shape = schema._zod.def.shape;
  const fields: FieldError[] = [];
  const sentences: string[] = [];
  const timestamps: string[] = [];
  for (const issue of issues) {
    const name = String(issue.path[0] ?? 'query');
    if (fields.some((f) => f.field === name)) continue;
    const field = shape[name];
    if (issue.code === 'invalid_value') {
      const message = `Use one of ${issue.values.join(', ')}.`;
      fields.push({ field: name, message });
      sentences.push(`${name} must be one of ${issue.values.join(', ')}.`);
    } else if (issue.code === 'invalid_format') {
      fields.push({ field: name, message: 'Use a timestamp such as 2026-09-14T09:41:00Z.' });
      timestamps.push(name);
    } else if (kindOf(field) === 'number') {
      const { minimum, maximum } = toJSONSchema(field!, { io: 'input' }) as { minimum?: number; maximum?: number };
      fields.push({ field: name, message: `Use ${minimum}–${maximum}.` });
      sentences.push(`${name} must be a whole number from ${minimum} to ${maximum}.`);
    } else {
      fields.push({ field: name, message: issue.message });
      sentences.push(`${name}: ${issue.message}`);
    }
  }
  if (timestamps.length)
    sentences.unshift(`${timestamps.join(' and ')} must be ${timestamps.length > 1 ? 'timestamps' : 'a timestamp'} such as 2026-09-14T09:41:00Z.`);
  return badRequest(sentences.join(' '), fields);
}
