"""Secrets masked before anything is sent: a faithful port of server/src/capture/mask.ts.

Credential headers, fields whose names say they hold a secret (in query strings, form bodies and
JSON bodies at any depth), card numbers (by their Luhn check digit) and the caller's patterns. A
masked value reads ``[masked]``. Options add names and patterns to the defaults; they cannot
remove one.
"""
from __future__ import annotations

import json
import re
from typing import Any, Callable, Dict, Iterable, Mapping, Optional

from ._limits import JS_SPACE

MASKED = "[masked]"
MASKED_HEADERS = ("authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key")
MASKED_FIELDS = {
    "holding": ("password", "passwd", "secret", "apikey", "authorization"),
    "endingIn": ("token", "card", "cardnumber", "cvc", "cvv", "ssn", "iban"),
}

_HOLDING = MASKED_FIELDS["holding"]
_ENDING = MASKED_FIELDS["endingIn"]
_SHORT_NAME = 12
_SHORTEST_CARD = 13
_CARD_SHAPE = re.compile(r"(?<![0-9])[0-9](?:[ -]?[0-9]){12,18}(?![0-9])")
_DIGIT = re.compile(r"[0-9]")
_FIELD_NOISE = re.compile("[" + JS_SPACE + "_.-]")
_STARTS_JSON = re.compile("^[" + JS_SPACE + "]*[{\\[]")
_HEX2 = re.compile(r"%([0-9A-Fa-f]{2})")
_JS_TRIM = JS_SPACE


def _field_key(name: str) -> str:
    return _FIELD_NOISE.sub("", name.lower())


def _luhn(digits: str) -> bool:
    total = 0
    double = False
    for i in range(len(digits) - 1, -1, -1):
        d = ord(digits[i]) - 48
        if double:
            d *= 2
            if d > 9:
                d -= 9
        total += d
        double = not double
    return total % 10 == 0


def _card(match: "re.Match[str]") -> str:
    found = match.group(0)
    return MASKED if _luhn(found.replace(" ", "").replace("-", "")) else found


def _string_end(body: str, start: int) -> int:
    """Index of the closing quote of the JSON string opening at ``start``, or -1 when cut first."""
    at = body.find('"', start + 1)
    while at != -1:
        backslashes = 0
        while at - 1 - backslashes >= 0 and body[at - 1 - backslashes] == "\\":
            backslashes += 1
        if backslashes % 2 == 0:
            return at
        at = body.find('"', at + 1)
    return -1


def _key_name(raw: str) -> str:
    if "\\" not in raw:
        return raw
    try:
        value = json.loads('"' + raw + '"')
        return value if isinstance(value, str) else raw
    except ValueError:
        return raw


def _container_end(body: str, start: int) -> int:
    depth = 0
    at = start
    n = len(body)
    while at < n:
        c = body[at]
        if c == '"':
            at = _string_end(body, at)
            if at == -1:
                return -1
        elif c == "{" or c == "[":
            depth += 1
        elif c == "}" or c == "]":
            depth -= 1
            if depth == 0:
                return at
        at += 1
    return -1


def _skip_space(body: str, at: int) -> int:
    n = len(body)
    while at < n and body[at] in " \n\r\t":
        at += 1
    return at


def _literal_end(body: str, at: int) -> int:
    n = len(body)
    while at < n and body[at] not in ",}] \n\r\t":
        at += 1
    return at


def _decode_uri_component(text: str) -> Optional[str]:
    """JavaScript's decodeURIComponent: None where it would throw."""
    if "%" not in text:
        return text
    out = bytearray()
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == "%":
            pair = text[i + 1 : i + 3]
            if len(pair) != 2 or not all(ch in "0123456789abcdefABCDEF" for ch in pair):
                return None
            out.append(int(pair, 16))
            i += 3
        else:
            out.extend(c.encode("utf-8", "surrogatepass"))
            i += 1
    try:
        return out.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _js_pattern(pattern: str) -> "re.Pattern[str]":
    """A JavaScript regular expression (matched without case) as Python reads it: named groups translated."""
    translated = re.sub(r"\(\?<(?![=!])", "(?P<", pattern)
    translated = re.sub(r"\\k<(\w+)>", r"(?P=\1)", translated)
    return re.compile(translated, re.IGNORECASE)


class Masker:
    """Masks header values, paths, texts and bodies as the console server's masker does."""

    def __init__(self, options: Optional[Mapping[str, Any]] = None) -> None:
        options = options or {}
        self._header_names = set(MASKED_HEADERS) | {h.lower() for h in (options.get("headers") or ())}
        self._extra_fields = {_field_key(f) for f in (options.get("fields") or ())}
        self._patterns = [_js_pattern(p) for p in (options.get("patterns") or ())]
        self._known: Dict[str, bool] = {}

    # -- names ------------------------------------------------------------------------------
    def is_secret_field(self, name: str) -> bool:
        secret = self._known.get(name)
        if secret is None:
            key = _field_key(name)
            secret = (
                key in self._extra_fields
                or any(word in key for word in _HOLDING)
                or any(key.endswith(word) for word in _ENDING)
            )
            if len(name) <= _SHORT_NAME:
                if len(self._known) >= 10_000:
                    self._known.clear()
                self._known[name] = secret
        return secret

    isSecretField = is_secret_field

    # -- texts ------------------------------------------------------------------------------
    def text(self, value: str) -> str:
        masked = value
        if len(value) >= _SHORTEST_CARD and _DIGIT.search(value):
            masked = _CARD_SHAPE.sub(_card, value)
        for pattern in self._patterns:
            masked = pattern.sub(MASKED, masked)
        return masked

    def _query(self, q: str) -> str:
        parts = []
        for pair in q.split("&"):
            equals = pair.find("=")
            if equals == -1:
                parts.append(pair)
                continue
            raw = pair[:equals]
            name = _decode_uri_component(raw.replace("+", " "))
            if name is None:
                name = raw
            parts.append(raw + "=" + MASKED if self.is_secret_field(name) else pair)
        return "&".join(parts)

    def header(self, name: str, value: str) -> str:
        if name.lower() in self._header_names or self.is_secret_field(name):
            return MASKED
        return self.text(value)

    def headers(self, headers: Mapping[str, str]) -> Dict[str, str]:
        return {name: self.header(name, value) for name, value in headers.items()}

    def path(self, path: str) -> str:
        at = path.find("?")
        if at == -1:
            return self.text(path)
        hash_at = path.find("#", at)
        end = len(path) if hash_at == -1 else hash_at
        return self.text(path[: at + 1] + self._query(path[at + 1 : end]) + path[end:])

    def _json(self, body: str) -> str:
        out = []
        copied = 0
        text = self.text
        patterns = bool(self._patterns)
        cards_anywhere = _CARD_SHAPE.search(body) is not None
        n = len(body)

        def searched(length: int) -> bool:
            return patterns or (cards_anywhere and length >= _SHORTEST_CARD)

        start = body.find('"')
        while start != -1:
            end = _string_end(body, start)
            if end == -1:
                out.append(body[copied:start])
                out.append(text(body[start:]))
                copied = n
                break
            after = _skip_space(body, end + 1)
            if after >= n or body[after] != ":":
                if searched(end - start - 1):
                    value = body[start : end + 1]
                    masked = text(value)
                    if masked != value:
                        out.append(body[copied:start])
                        out.append(masked)
                        copied = end + 1
                start = body.find('"', end + 1)
                continue
            value_at = _skip_space(body, after + 1)
            key = body[start + 1 : end]
            if value_at >= n or not self.is_secret_field(_key_name(key)):
                masked = text(key) if searched(len(key)) else key
                if masked != key:
                    out.append(body[copied : start + 1])
                    out.append(masked)
                    copied = end
                start = body.find('"', after + 1)
                continue
            first = body[value_at]
            if first == '"':
                value_end = _string_end(body, value_at)
            elif first == "{" or first == "[":
                value_end = _container_end(body, value_at)
            else:
                value_end = _literal_end(body, value_at) - 1
            out.append(body[copied:value_at])
            out.append('"' + MASKED + '"')
            copied = n if value_end == -1 else value_end + 1
            start = -1 if value_end == -1 else body.find('"', value_end + 1)
        out.append(body[copied:])
        return "".join(out)

    def body(self, content_type: Optional[str], body: str) -> str:
        kind = (content_type or "").split(";")[0].strip(_JS_TRIM_CHARS).lower()
        if kind == "application/x-www-form-urlencoded":
            return self.text(self._query(body))
        if _STARTS_JSON.match(body):
            return self._json(body)
        return self.text(body)


from ._limits import JS_SPACE_CHARS as _JS_TRIM_CHARS  # noqa: E402


def create_masker(options: Optional[Mapping[str, Any]] = None) -> Masker:
    return Masker(options)
