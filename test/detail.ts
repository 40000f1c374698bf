/** Reading the label/value facts of a detail page as a screen reader announces them. */
import { $$, text } from './dom.ts';

/** Text without the decorative (aria-hidden) parts, such as avatar initials. */
export function spokenText(node: Element | null): string {
  if (!node) return '';
  const copy = node.cloneNode(true) as Element;
  copy.querySelectorAll('[aria-hidden="true"]').forEach((hidden) => hidden.remove());
  return text(copy);
}

export function facts(el: Element): Record<string, string> {
  return Object.fromEntries($$(el, '.fact').map((fact) => [text(fact.querySelector('dt')), spokenText(fact.querySelector('dd'))]));
}
