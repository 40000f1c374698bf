'use client';
/**
 * The React wrappers' one mechanism: `@lit/react`'s `createComponent` (properties set as
 * properties, events as `on…` props), rendered with `defer-hydration` so that, after server
 * rendering as on the client, an element and an `<OpsConsole>` around it send no request before
 * React has set their properties (`getToken`, `routes`, `fetch`); `@lit/react` removes the
 * attribute once it has.
 */
import * as React from 'react';
import { createComponent, type EventName, type ReactWebComponent } from '@lit/react';
import type { OpsEventMap } from '../shared/events.ts';
// The wrapper first: an element upgraded before it would miss its configuration.
import '../elements/console/define.ts';

type Words<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Capitalize<Head>}${Words<Tail>}` : Capitalize<S>;
/** `ops-load-error` → `onLoadError`. */
export type EventProp<K extends string> = K extends `ops-${infer Rest}` ? `on${Words<Rest>}` : never;
type EventProps<K extends keyof OpsEventMap> = { [P in K as EventProp<P>]: EventName<OpsEventMap[P]> };

/** `ops-load-error` → `onLoadError`, as {@link EventProp} types it. */
export const eventProp = <K extends string>(type: K) =>
  ('on' + type.replace(/^ops-/, '').replace(/(^|-)(\w)/g, (_, _dash: string, letter: string) => letter.toUpperCase())) as EventProp<K>;

export type OpsReactComponent<I extends HTMLElement, K extends keyof OpsEventMap = never> = ReactWebComponent<I, EventProps<K>> & {
  /** The element's tag, and the events it has `on…` props for. */
  readonly tagName: string;
  readonly eventTypes: readonly K[];
};

export function wrap<I extends HTMLElement, K extends keyof OpsEventMap = never>(
  tagName: string,
  elementClass: new () => I,
  eventTypes: readonly K[] = [],
): OpsReactComponent<I, K> {
  const events = Object.fromEntries(eventTypes.map((type) => [eventProp(type), type])) as unknown as EventProps<K>;
  const Wrapped = createComponent({ react: React, tagName, elementClass, events, displayName: elementClass.name });
  // Typed by the cast below: the wrapped component's own props, which this passes on unchanged.
  const Deferred = React.forwardRef<I, Record<string, unknown>>((props, ref) =>
    React.createElement(Wrapped as React.ElementType, { 'defer-hydration': '', ...props, ref }),
  );
  Deferred.displayName = elementClass.name;
  return Object.assign(Deferred, { tagName, eventTypes }) as OpsReactComponent<I, K>;
}
