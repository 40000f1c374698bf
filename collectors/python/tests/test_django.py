from __future__ import annotations

import json
import time

import django
from django.conf import settings

import suite
from conftest import serve_wsgi

PREFIX = "/v5"

if not settings.configured:
    settings.configure(
        DEBUG=False,
        ALLOWED_HOSTS=["*"],
        SECRET_KEY="suite-only",
        ROOT_URLCONF=__name__,
        MIDDLEWARE=["ops_console.django.OpsConsoleMiddleware"],
        INSTALLED_APPS=[],
        USE_TZ=True,
        LOGGING_CONFIG=None,
    )
    django.setup()

from django.http import HttpResponse, JsonResponse, StreamingHttpResponse  # noqa: E402
from django.urls import include, path  # noqa: E402

import ops_console.django as ops_django  # noqa: E402


def contact(request, id):
    return JsonResponse({"id": id})


def messages(request):
    request.body
    return HttpResponse("created", status=201)


def webhooks(request):
    raise RuntimeError("the handler failed")


def stream(request):
    def chunks():
        for i in range(3):
            if i:
                time.sleep(0.02)
            yield b"chunk-"

    return StreamingHttpResponse(chunks(), content_type="text/plain")


def slow(request):
    suite.slow_arrived.set()
    time.sleep(suite.SLOW_S)
    return HttpResponse("late")


def sleep(request, ms):
    time.sleep(ms / 1000)
    return HttpResponse("slept")


def orders(request):
    status, body = suite.order_answer(json.loads(request.body))
    return JsonResponse(body, status=status)


urlpatterns = [
    path(
        PREFIX[1:] + "/",
        include(
            [
                path("contacts/<str:id>", contact),
                path("messages", messages),
                path("webhooks", webhooks),
                path("usage/stream", stream),
                path("slow", slow),
                path("sleep/<int:ms>", sleep),
                path("orders", orders),
            ]
        ),
    )
]


def start(collector, **options):
    from django.core.handlers.wsgi import WSGIHandler

    ops_django.configure(collector, **options)
    return serve_wsgi(WSGIHandler())


TEMPLATES = {"contacts": "/contacts/<str:id>", "messages": "/messages", "webhooks": "/webhooks", "stream": "/usage/stream"}


def test_routes(console):
    suite.check_routes(console, start, PREFIX, TEMPLATES)


def test_percentiles(console):
    suite.check_percentiles(console, start, PREFIX, "/sleep/<int:ms>")


def test_capture(console):
    suite.check_capture(console, start, PREFIX)


def test_abandoned(console):
    suite.check_abandoned(console, start, PREFIX, "/slow")


def test_queue_full():
    suite.check_queue_full(start, PREFIX)
