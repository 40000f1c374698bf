"""Bodies read as they pass (capture.ts) and kept as the server keeps them (capture/bodies.ts)."""
from __future__ import annotations

import random
from typing import Any, Dict, List, Mapping, Optional

from . import _limits as LIMIT
from ._limits import JS_SPACE_CHARS, TEXT_BODY
from .mask import Masker

#: Characters past the cut that are masked with the rest, so a secret the cut splits is seen whole.
MASK_OVERLAP = 256
#: The characters before a cut that may hold the start of a secret the cut split.
CUT_MARGIN = 64


class BodyTap:
    """A body read as it passes: at most ``max`` bytes kept, every byte counted."""

    __slots__ = ("chunks", "kept", "size", "max")

    def __init__(self, max_bytes: int) -> None:
        self.chunks: List[bytes] = []
        self.kept = 0
        self.size = 0
        self.max = max_bytes

    def add(self, chunk: Any) -> None:
        if isinstance(chunk, str):
            chunk = chunk.encode("utf-8")
        elif not isinstance(chunk, (bytes, bytearray, memoryview)):
            return
        n = len(chunk)
        self.size += n
        if self.kept >= self.max or not n:
            return
        room = self.max - self.kept
        part = bytes(chunk) if n <= room else bytes(chunk[:room])
        self.chunks.append(part)
        self.kept += len(part)

    def body(self, content_type: str) -> Dict[str, Any]:
        data = self.chunks[0] if len(self.chunks) == 1 else b"".join(self.chunks)
        text = data.decode("utf-8", "replace")
        truncated = self.size > self.kept
        if truncated and text.endswith("\ufffd"):
            text = text[:-1]
        return {"content_type": content_type, "size": self.size, "text": text, "truncated": truncated}


def cut_to_bytes(text: str, max_bytes: int) -> str:
    """The first ``max_bytes`` UTF-8 bytes of ``text``, never splitting a character."""
    if len(text) * 4 <= max_bytes:
        return text
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= max_bytes:
        return text
    end = max_bytes
    while end > 0 and (data[end] & 0xC0) == 0x80:
        end -= 1
    return data[:end].decode("utf-8", "replace")


def _agreeing(whole: str, shorter: str) -> str:
    limit = min(len(whole), len(shorter))
    same = 0
    while same < limit and whole[same] == shorter[same]:
        same += 1
    return whole[:same]


def kept_body(body: Mapping[str, Any], mask: Masker, max_bytes: int) -> Dict[str, Any]:
    """A body as it is kept: masked and cut (``keptBody``); ``text`` None for types that are not text."""
    content_type = (body.get("content_type") or "").strip(JS_SPACE_CHARS)
    sent = body.get("text")
    size = body.get("size") or 0
    if not isinstance(sent, str) or not (TEXT_BODY.match(content_type) or content_type == ""):
        return {"content_type": content_type, "size": size, "truncated": False, "text": None}
    sent_bytes = len(sent.encode("utf-8", "surrogatepass"))
    window = sent[: max_bytes + MASK_OVERLAP] if len(sent) > max_bytes + MASK_OVERLAP else sent
    masked = mask.body(content_type, window)
    cut_edge = window is not sent or body.get("truncated") is True
    usable = _agreeing(masked, mask.body(content_type, window[: max(0, len(window) - CUT_MARGIN)])) if cut_edge else masked
    text = cut_to_bytes(usable, max_bytes)
    return {"content_type": content_type, "size": max(size, sent_bytes), "truncated": cut_edge or text != masked, "text": text}


def is_captured(content_type: Optional[str], capture: Mapping[str, Any]) -> bool:
    if not content_type:
        return False
    types = capture.get("content_types")
    if not types:
        return TEXT_BODY.match(content_type) is not None
    kind = content_type.lower()
    return any(kind.startswith(prefix.lower()) for prefix in types)


def max_body_bytes_of(capture: Optional[Mapping[str, Any]]) -> int:
    value = (capture or {}).get("max_body_bytes")
    return max(0, LIMIT.BODY_TEXT if value is None else int(value))


def keeps_bodies(sample: Optional[Mapping[str, Any]], status: int, duration_ms: float) -> bool:
    """Whether a request answered so keeps its bodies: always for the ``always`` ones, else at ``rate``."""
    if not sample:
        return True
    always = sample.get("always") or {}
    klass = always.get("status")
    if klass and status >= (500 if klass == "5xx" else 400):
        return True
    slower = always.get("slower_than_ms")
    if slower is not None and duration_ms > slower:
        return True
    rate = sample.get("rate")
    return random.random() < (1.0 if rate is None else rate)
