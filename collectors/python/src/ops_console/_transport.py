"""The HTTP side of sending: one kept-alive connection to the console server, a batch POSTed on
it with the ingest key and its Idempotency-Key, and the connection dropped or cut short.

``Transport`` is a part of ``Collector`` (collector.py), which holds the ingest URL's parts,
the key and the connection; it is used on the sending thread, under the send lock."""
from __future__ import annotations

import http.client
import socket
from typing import Optional, Tuple

from ._ingest_api import MAX_ANSWER_BYTES

__all__ = ["Transport"]


class Transport:
    """The collector's connection to the ingest API (a mixin of ``Collector``)."""

    def _connection(self, timeout: float) -> http.client.HTTPConnection:
        conn = self._conn
        if conn is None:
            if self._scheme == "https":
                conn = http.client.HTTPSConnection(self._host, self._port, timeout=timeout)
            else:
                conn = http.client.HTTPConnection(self._host, self._port, timeout=timeout)
            self._conn = conn
            self._conn_used = False
        else:
            conn.timeout = timeout
            if conn.sock is not None:
                conn.sock.settimeout(timeout)
        return conn

    def _post(self, body: bytes, key: str, timeout: float) -> Tuple[int, Optional[str], bytes]:
        headers = {
            "Authorization": "Bearer " + self._key,
            "Content-Type": "application/json",
            "Idempotency-Key": key,
            "Content-Length": str(len(body)),
        }
        for attempt in (0, 1):
            conn = self._connection(timeout)
            reused = self._conn_used
            try:
                conn.request("POST", self._path, body=body, headers=headers)
                response = conn.getresponse()
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError, http.client.CannotSendRequest, http.client.BadStatusLine):
                self._drop_connection()
                if reused and attempt == 0:
                    continue  # a kept-alive connection the server had closed: once more on a new one
                raise
            except Exception:
                self._drop_connection()
                raise
            try:
                answer = response.read(MAX_ANSWER_BYTES)
                if not response.isclosed():
                    self._drop_connection()
                else:
                    self._conn_used = True
                if response.getheader("connection", "").lower() == "close":
                    self._drop_connection()
            except Exception:
                self._drop_connection()
                raise
            return response.status, response.getheader("retry-after"), answer
        raise ConnectionError("no answer")

    def _drop_connection(self) -> None:
        conn = self._conn
        self._conn = None
        self._conn_used = False
        if conn is not None:
            try:
                conn.close()
            except Exception:
                pass

    def _abort(self) -> None:
        """Ends a send under way (at close's deadline)."""
        conn = self._conn
        sock = getattr(conn, "sock", None) if conn is not None else None
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except Exception:
                pass
