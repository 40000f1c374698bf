/** The config file's `capture.mask`, checked: what the server masks besides the defaults (./mask.ts). */
import { z } from 'zod';
import { checkPattern } from './mask.ts';

/** Header names, field names, and patterns that compile. */
export const maskConfig = z.strictObject({
  headers: z.array(z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'is not a header name')).optional(),
  fields: z.array(z.string().min(1)).optional(),
  patterns: z
    .array(
      z.string().superRefine((pattern, ctx) => {
        const wrong = checkPattern(pattern);
        if (wrong) ctx.addIssue({ code: 'custom', message: wrong });
      }),
    )
    .optional(),
});
