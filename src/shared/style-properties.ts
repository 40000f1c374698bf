import { noChange } from 'lit';
import { Directive, directive, PartType, type ElementPart, type PartInfo } from 'lit/directive.js';

/**
 * `<div ${styleProperties({ height: '120px' })}>`: sets each property through the element's
 * style object (CSSOM) on every render. Lit's styleMap writes a `style` attribute on its first
 * render, which a page whose CSP has no 'unsafe-inline' for styles blocks; this never does.
 */
class StylePropertiesDirective extends Directive {
  constructor(part: PartInfo) {
    super(part);
    if (part.type !== PartType.ELEMENT) throw new Error('styleProperties() belongs on an element, not in an attribute or text');
  }

  /** Declares the argument; the work is in update(), which has the element. */
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the parameter types the directive's argument
  render(properties: Readonly<Record<string, string>>) {
    return noChange;
  }

  override update(part: ElementPart, [properties]: [Readonly<Record<string, string>>]) {
    const { style } = part.element as HTMLElement;
    for (const [name, value] of Object.entries(properties)) if (style.getPropertyValue(name) !== value) style.setProperty(name, value);
    return noChange;
  }
}

export const styleProperties = directive(StylePropertiesDirective);
