"""The collector closed when the process ends: at interpreter exit (``atexit``) and on SIGTERM
(installed only from the main thread; a previous handler is called after it, and without one
the signal still ends the process).

``ExitHooks`` is a part of ``Collector`` (collector.py), whose ``close`` it calls."""
from __future__ import annotations

import atexit
import os
import signal
import threading
from typing import Any

__all__ = ["ExitHooks"]


class ExitHooks:
    """Closing at exit and on SIGTERM (a mixin of ``Collector``)."""

    def _install_exit_hooks(self, close_at_exit: bool, close_on_sigterm: bool) -> None:
        self._previous_sigterm: Any = None
        self._sigterm_installed = False
        self._atexit_installed = False
        if close_at_exit:
            atexit.register(self._close_at_exit)
            self._atexit_installed = True
        if close_on_sigterm and threading.current_thread() is threading.main_thread() and hasattr(signal, "SIGTERM"):
            try:
                self._previous_sigterm = signal.getsignal(signal.SIGTERM)
                signal.signal(signal.SIGTERM, self._on_sigterm)
                self._sigterm_installed = True
            except (ValueError, OSError):
                pass

    def _close_at_exit(self) -> None:
        self._atexit_installed = False
        self.close()

    def _on_sigterm(self, signum: int, frame: Any) -> None:
        previous = self._previous_sigterm
        try:
            signal.signal(signal.SIGTERM, previous if previous is not None else signal.SIG_DFL)
        except Exception:
            pass
        self._sigterm_installed = False
        # Closed from a thread: the signal may have come while this thread held the queue's lock.
        closer = threading.Thread(target=self.close, name="ops-console-close", daemon=True)
        closer.start()
        closer.join(self._close_timeout + 1.0)
        if callable(previous):
            previous(signum, frame)
        elif previous in (signal.SIG_DFL, None):
            os.kill(os.getpid(), signum)

    def _uninstall(self) -> None:
        if self._atexit_installed:
            self._atexit_installed = False
            try:
                atexit.unregister(self._close_at_exit)
            except Exception:
                pass
        if self._sigterm_installed and threading.current_thread() is threading.main_thread():
            try:
                if signal.getsignal(signal.SIGTERM) == self._on_sigterm:
                    signal.signal(signal.SIGTERM, self._previous_sigterm if self._previous_sigterm is not None else signal.SIG_DFL)
                    self._sigterm_installed = False
            except Exception:
                pass
