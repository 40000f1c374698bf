from __future__ import annotations

import time

import pytest
from flask import Flask, Response, jsonify, request

import suite
from conftest import serve_wsgi
from ops_console import collect_flask

PREFIX = "/v2"
TEMPLATES = {
    "contacts": "/contacts/<id>",
    "messages": "/messages",
    "webhooks": "/webhooks",
    "stream": "/usage/stream",
}


def start(collector, **options):
    app = Flask("suite_flask")

    @app.get(PREFIX + "/contacts/<id>")
    def contact(id):
        return jsonify(id=id)

    @app.post(PREFIX + "/messages")
    def messages():
        request.get_data()
        return Response("created", status=201)

    @app.post(PREFIX + "/webhooks")
    def webhooks():
        raise RuntimeError("the handler failed")

    @app.get(PREFIX + "/usage/stream")
    def stream():
        def chunks():
            for i in range(3):
                if i:
                    time.sleep(0.02)
                yield "chunk-"

        return Response(chunks(), mimetype="text/plain")

    @app.get(PREFIX + "/slow")
    def slow():
        suite.slow_arrived.set()
        time.sleep(suite.SLOW_S)
        return "late"

    @app.get(PREFIX + "/sleep/<int:ms>")
    def sleep(ms):
        time.sleep(ms / 1000)
        return "slept"

    @app.post(PREFIX + "/orders")
    def orders():
        status, body = suite.order_answer(request.get_json())
        return jsonify(body), status

    collect_flask(app, collector, **options)
    return serve_wsgi(app)


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


def test_fast_path(console):
    suite.check_fast(console, start, PREFIX, TEMPLATES)
