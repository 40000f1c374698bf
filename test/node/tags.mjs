import { ELEMENTS } from '../../src/elements/registry.ts';

/** The elements the package promises (the wrapper and the internal chart host aside), from the registry. */
export const ELEMENT_TAGS = ELEMENTS.filter((e) => !e.wrapper).map((e) => e.tag);
