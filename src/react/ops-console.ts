'use client';
import { OpsConsole as Element } from '../elements/console/ops-console.ts';
import '../elements/console/define.ts';
import { wrap } from './wrap.ts';

/** `<ops-console>` for React. The configuration for every element inside it: `apiBase`, `getToken`, `routes`, `locale`, `timeZone`. */
export const OpsConsole = wrap('ops-console', Element);
