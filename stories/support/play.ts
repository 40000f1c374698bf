/** What a play function does as a person would: wait for the panel, fill fields, press buttons. */
import { delay } from 'msw';

/** The shadow root of `tag` in the story, once it holds `selector` (the data has loaded). */
export async function shadowWith(canvasElement: HTMLElement, tag: string, selector: string): Promise<ShadowRoot> {
  const el = canvasElement.querySelector(tag)!;
  for (let i = 0; i < 100 && !el.shadowRoot?.querySelector(selector); i++) await delay(50);
  return el.shadowRoot!;
}

/** Types or chooses each value into the field of that id, firing the event a person's input fires. */
export async function fill(root: ShadowRoot, values: Record<string, string>): Promise<void> {
  for (const [id, value] of Object.entries(values)) {
    const field = root.querySelector<HTMLInputElement>(`#${id}, [name="${id}"]`)!;
    field.value = value;
    field.dispatchEvent(new Event(field.tagName === 'SELECT' ? 'change' : 'input'));
  }
  await delay(50);
}

export function press(root: ShadowRoot, selector: string): void {
  root.querySelector<HTMLButtonElement>(selector)!.click();
}
