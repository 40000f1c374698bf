import type { ReactiveController, ReactiveControllerHost } from 'lit';

/**
 * Runs `tick` every `periodMs()` while the host is connected (0 or less: never). Cleared on
 * disconnect, so an unmounted element leaves no timer behind; `restart()` after the period changes.
 */
export class IntervalController implements ReactiveController {
  #id: ReturnType<typeof setInterval> | undefined;
  readonly #period: () => number;
  readonly #tick: () => void;

  constructor(host: ReactiveControllerHost, periodMs: () => number, tick: () => void) {
    this.#period = periodMs;
    this.#tick = tick;
    host.addController(this);
  }

  hostConnected(): void {
    this.restart();
  }

  hostDisconnected(): void {
    this.#stop();
  }

  restart(): void {
    this.#stop();
    const period = this.#period();
    if (Number.isFinite(period) && period > 0) {
      this.#id = setInterval(this.#tick, period);
    }
  }

  #stop(): void {
    if (this.#id !== undefined) {
      clearInterval(this.#id);
      this.#id = undefined;
    }
  }
}
