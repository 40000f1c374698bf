"""What the WSGI middleware and the Django middleware share: reading an environ, tapping its input."""
from __future__ import annotations

import socket
from typing import Any, Callable, Iterator, List, Mapping, Optional, Tuple
from urllib.parse import quote

from .bodies import BodyTap

_PEEK = getattr(socket, "MSG_PEEK", 0) | getattr(socket, "MSG_DONTWAIT", 0)


def raw_path(environ: Mapping[str, Any]) -> str:
    """The request's path as sent, without its query string."""
    uri = environ.get("REQUEST_URI") or environ.get("RAW_URI")
    if uri:
        at = uri.find("?")
        path = uri if at == -1 else uri[:at]
        if path.startswith("/"):
            return path
        if "://" in path:  # absolute-form target
            rest = path.split("://", 1)[1]
            slash = rest.find("/")
            return rest[slash:] if slash != -1 else "/"
    path = environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", "")
    try:
        return quote(path.encode("latin-1"), safe="/:@!$&'()*+,;=-._~%") or "/"
    except Exception:
        return path or "/"


def header_of(environ: Mapping[str, Any]) -> Callable[[str], Optional[str]]:
    def header(name: str) -> Optional[str]:
        if name == "content-type":
            return environ.get("CONTENT_TYPE") or None
        if name == "content-length":
            return environ.get("CONTENT_LENGTH") or None
        value = environ.get("HTTP_" + name.upper().replace("-", "_"))
        return value if value is None else str(value)

    return header


def header_pairs(environ: Mapping[str, Any]) -> List[Tuple[str, str]]:
    pairs = []
    for key, value in environ.items():
        if key.startswith("HTTP_"):
            pairs.append((key[5:].lower().replace("_", "-"), str(value)))
        elif key == "CONTENT_TYPE" and value:
            pairs.append(("content-type", str(value)))
        elif key == "CONTENT_LENGTH" and value:
            pairs.append(("content-length", str(value)))
    return pairs


def client_gone(environ: Mapping[str, Any]) -> bool:
    """Whether the client closed its connection (seen on servers that expose their socket, as werkzeug's)."""
    sock = environ.get("werkzeug.socket")
    if sock is None or not _PEEK:
        return False
    try:
        return sock.recv(1, _PEEK) == b""
    except (BlockingIOError, InterruptedError):
        return False
    except OSError:
        return True
    except Exception:
        return False


class TappedInput:
    """A request body stream the host reads as it would; what passes is tapped (up to its limit)."""

    __slots__ = ("_input", "tap")

    def __init__(self, stream: Any, tap: BodyTap) -> None:
        self._input = stream
        self.tap = tap

    def read(self, *args: Any) -> Any:
        data = self._input.read(*args)
        self.tap.add(data)
        return data

    def readline(self, *args: Any) -> Any:
        data = self._input.readline(*args)
        self.tap.add(data)
        return data

    def readlines(self, *args: Any) -> Any:
        lines = self._input.readlines(*args)
        for line in lines:
            self.tap.add(line)
        return lines

    def __iter__(self) -> Iterator[Any]:
        for line in self._input:
            self.tap.add(line)
            yield line

    def __getattr__(self, name: str) -> Any:
        return getattr(self._input, name)
