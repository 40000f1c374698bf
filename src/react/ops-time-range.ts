'use client';
import { OpsTimeRange as Element } from '../elements/time-range/ops-time-range.ts';
import '../elements/time-range/define.ts';
import { wrap } from './wrap.ts';

/** `<ops-time-range>` for React. The time range control (last hour … last 12 months, or custom). */
export const OpsTimeRange = wrap('ops-time-range', Element, ['ops-range-change']);
