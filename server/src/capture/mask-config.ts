/** The config file's `capture` and `retention`, checked: what the server masks besides the defaults (./mask.ts), and how much it keeps for how long. */
import { z } from 'zod';
import { INGEST_LIMITS } from '../limits.ts';
import { checkPattern } from '@ops-console/contract/masking';

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

export const captureConfig = z
  .strictObject({
    mask: maskConfig.optional(),
    maxBodyBytes: z.int().min(0).max(INGEST_LIMITS.bodyTextMax).optional(),
    payloadsFor: z.enum(['viewer', 'editor']).optional(),
  })
  .optional()
  .describe(
    'What is masked before a request is kept, besides credential headers, secret fields and card numbers; the bytes of body text kept (default 65536); who reads headers and bodies (viewer or editor).',
  );

export const retentionConfig = z
  .strictObject({ payloadDays: z.int().min(1).max(3650).optional() })
  .optional()
  .describe('Days that request headers and bodies are kept (default 7); requests and figures stay.');
