import type { ReactiveController, ReactiveControllerHost } from 'lit';

/**
 * Runs `tick` every `periodMs()` while the host is connected (0 or less: never). Cleared on
 * disconnect, so an unmounted element leaves no timer behind; `restart()` after the period changes.
 * A host that is never connected (rendered on a server) never starts one, even when it restarts.
 */
export class IntervalController implements ReactiveController {
  #id: ReturnType<typeof setInterval> | undefined;
  #connected = false;
  readonly #period: () => number;
  readonly #tick: () => void;

  constructor(host: ReactiveControllerHost, periodMs: () => number, tick: () => void) {
    this.#period = periodMs;
    this.#tick = tick;
    host.addController(this);
  }

  hostConnected(): void {
    this.#connected = true;
    this.restart();
  }

  hostDisconnected(): void {
    this.#connected = false;
    this.#stop();
  }

  restart(): void {
    this.#stop();
    if (!this.#connected) return;
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
