import type { core } from 'zod/mini';

/** Turns schema issues into short lines such as `items[0].status: expected string, got number`. */
export function describeIssues(issues: readonly core.$ZodIssue[], limit = 8): string[] {
  const lines = issues.slice(0, limit).map((issue) => {
    const where = formatPath(issue.path) || 'response';
    return `${where}: ${describeIssue(issue)}`;
  });
  if (issues.length > limit) lines.push(`…and ${issues.length - limit} more`);
  return lines;
}

function describeIssue(issue: core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? `missing (expected ${issue.expected})` : `expected ${issue.expected}, got ${typeOf(issue.input)}`;
    case 'invalid_format':
      return `not a valid ${issue.format}`;
    case 'invalid_union': {
      // An open enum is a union of known values and any string: report the type it wants.
      const typeIssues = issue.errors.map((branch) => branch[0]).filter((b) => b?.code === 'invalid_type');
      if (typeIssues.length) {
        const expected = [...new Set(typeIssues.map((b) => (b as { expected: string }).expected))].join(' or ');
        return `expected ${expected}, got ${typeOf(typeIssues[0]!.input)}`;
      }
      return 'not any of the accepted shapes';
    }
    case 'invalid_value':
      return `expected one of ${issue.values.map(String).join(', ')}`;
    case 'too_small':
      return `too small (minimum ${String(issue.minimum)})`;
    case 'too_big':
      return `too big (maximum ${String(issue.maximum)})`;
    default:
      return issue.message && issue.message !== 'Invalid input' ? issue.message : issue.code.replace(/_/g, ' ');
  }
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => {
    if (typeof key === 'number') return `${out}[${key}]`;
    return out ? `${out}.${String(key)}` : String(key);
  }, '');
}
