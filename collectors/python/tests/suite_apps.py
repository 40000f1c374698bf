"""What every suite app serves and is wrapped with (see suite.py): the slow request's signal, the
orders handler's answer, and the middleware options the checks pass (identify, redact)."""
from __future__ import annotations

import threading
from typing import Any, Callable, Dict, Optional, Tuple

SLOW_S = 2.0
slow_arrived = threading.Event()
CARD = "4242424242424242"


def order_answer(body: Any) -> Tuple[int, Dict[str, Any]]:
    order = body if isinstance(body, dict) else {}
    if not isinstance(order.get("items"), list):
        return 422, {"error": "items_missing", "card": order.get("card")}
    return 201, {"orderId": "ord_1", "count": len(order["items"]), "card": order.get("card")}


def identify(request: Any) -> Dict[str, Any]:
    """The key and customer from the x-key and x-customer headers of whichever request object the framework hands over."""
    headers = getattr(request, "headers", None)
    if headers is None and isinstance(request, dict):  # a WSGI environ
        return {"key_id": request.get("HTTP_X_KEY"), "customer_id": request.get("HTTP_X_CUSTOMER")}
    return {"key_id": headers.get("x-key"), "customer_id": headers.get("x-customer")}


def redact(event: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    if event["path"].endswith("/hidden"):
        return None
    event["path"] = event["path"].replace("/c_7", "/c_…")
    return event


OPTIONS: Dict[str, Any] = dict(
    path_prefix=True,
    headers=["X-Request-Id", "user-agent", "Authorization", "x-note"],
    redact=redact,
)

Start = Callable[..., Tuple[str, Callable[[], None]]]
