import type { ComplexAttributeConverter } from 'lit';

/** What a numeric attribute accepts and what it falls back to. */
export interface NumberRule {
  /** The element and attribute, for the warning: `ops-console`, `timeout-ms`. */
  tag: string;
  attribute: string;
  fallback: number;
  min: number;
  max?: number;
  integer?: boolean;
  /** `0` is accepted below `min` and means "off" (refresh intervals). */
  zeroIsOff?: boolean;
}

function describe(rule: NumberRule): string {
  const kind = rule.integer ? 'a whole number' : 'a number';
  const range = rule.max === undefined ? `of at least ${rule.min}` : `from ${rule.min} to ${rule.max}`;
  return `${kind} ${range}${rule.zeroIsOff ? ' (or 0 for off)' : ''}`;
}

/** `value` if the rule accepts it, else `undefined`. */
function accepted(rule: NumberRule, value: number): number | undefined {
  if (!Number.isFinite(value)) return undefined;
  if (rule.zeroIsOff && value === 0) return 0;
  if (value < rule.min || (rule.max !== undefined && value > rule.max)) return undefined;
  if (rule.integer && !Number.isInteger(value)) return undefined;
  return value;
}

/**
 * The one place numeric input is read. A value the rule refuses (`"abc"`, `"15 000"`, `-1`,
 * `0.005` seconds) becomes the default, and the page is told once, by a warning naming the
 * attribute; nothing downstream ever sees `NaN`.
 */
export function readNumber(rule: NumberRule, raw: unknown): number {
  if (raw === null || raw === undefined) return rule.fallback;
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw.trim()) : Number.NaN;
  const ok = accepted(rule, value);
  if (ok !== undefined) return ok;
  const shown = typeof raw === 'string' || typeof raw === 'number' ? String(raw) : typeof raw;
  console.warn(`<${rule.tag}> ignored ${rule.attribute}="${shown.slice(0, 40)}": expected ${describe(rule)}; using ${rule.fallback}.`);
  return rule.fallback;
}

/**
 * A Lit attribute converter for a numeric attribute: parsed and checked once per attribute
 * change (Lit calls it only when the attribute changes), so a typo can never loop. Use it as
 * `@property({ type: Number, attribute: 'limit', converter: numberConverter(LIMIT) })`.
 */
export function numberConverter(rule: NumberRule): ComplexAttributeConverter<number> {
  return { fromAttribute: (value) => readNumber(rule, value), toAttribute: (value: number) => String(value) };
}

/** The value a property holds, checked quietly (a property set from script to a refused value reads as the default). */
export function validNumber(rule: NumberRule, value: number | undefined): number {
  return value === undefined ? rule.fallback : (accepted(rule, value) ?? rule.fallback);
}
