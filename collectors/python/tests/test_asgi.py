from __future__ import annotations

import asyncio

import pytest
from fastapi import FastAPI, Request as FastRequest
from fastapi.responses import JSONResponse as FastJSON, PlainTextResponse as FastText, StreamingResponse as FastStream
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, StreamingResponse
from starlette.routing import Mount, Route

import suite
from conftest import serve_asgi
from ops_console.asgi import OpsConsoleASGI, OpsConsoleMiddleware


async def _chunks():
    for i in range(3):
        if i:
            await asyncio.sleep(0.02)
        yield b"chunk-"


# -- FastAPI, installed with add_middleware ---------------------------------------------------
FASTAPI = "/v3"


def start_fastapi(collector, **options):
    app = FastAPI()

    @app.get(FASTAPI + "/contacts/{id}")
    async def contact(id: str):
        return {"id": id}

    @app.post(FASTAPI + "/messages")
    async def messages(request: FastRequest):
        await request.body()
        return FastText("created", status_code=201)

    @app.post(FASTAPI + "/webhooks")
    async def webhooks():
        raise RuntimeError("the handler failed")

    @app.get(FASTAPI + "/usage/stream")
    async def stream():
        return FastStream(_chunks(), media_type="text/plain")

    @app.get(FASTAPI + "/slow")
    async def slow():
        suite.slow_arrived.set()
        await asyncio.sleep(suite.SLOW_S)
        return FastText("late")

    @app.get(FASTAPI + "/sleep/{ms}")
    def sleep(ms: int):  # a sync handler, run in the thread pool
        import time

        time.sleep(ms / 1000)
        return FastText("slept")

    @app.post(FASTAPI + "/orders")
    async def orders(request: FastRequest):
        status, body = suite.order_answer(await request.json())
        return FastJSON(body, status_code=status)

    app.add_middleware(OpsConsoleMiddleware, collector=collector, **options)
    return serve_asgi(app)


FASTAPI_TEMPLATES = {"contacts": "/contacts/{id}", "messages": "/messages", "webhooks": "/webhooks", "stream": "/usage/stream"}


def test_fastapi_routes(console):
    suite.check_routes(console, start_fastapi, FASTAPI, FASTAPI_TEMPLATES)


def test_fastapi_percentiles(console):
    suite.check_percentiles(console, start_fastapi, FASTAPI, "/sleep/{ms}")


def test_fastapi_capture(console):
    suite.check_capture(console, start_fastapi, FASTAPI)


def test_fastapi_abandoned(console):
    suite.check_abandoned(console, start_fastapi, FASTAPI, "/slow")


def test_fastapi_queue_full():
    suite.check_queue_full(start_fastapi, FASTAPI)


# -- Starlette, its routes under a Mount, the app wrapped whole -------------------------------
STARLETTE = "/v4"


def start_starlette(collector, **options):
    async def contact(request: Request):
        return JSONResponse({"id": request.path_params["id"]})

    async def messages(request: Request):
        await request.body()
        return PlainTextResponse("created", status_code=201)

    async def webhooks(request: Request):
        raise RuntimeError("the handler failed")

    async def stream(request: Request):
        return StreamingResponse(_chunks(), media_type="text/plain")

    async def slow(request: Request):
        suite.slow_arrived.set()
        await asyncio.sleep(suite.SLOW_S)
        return PlainTextResponse("late")

    async def sleep(request: Request):
        await asyncio.sleep(request.path_params["ms"] / 1000)
        return PlainTextResponse("slept")

    async def orders(request: Request):
        status, body = suite.order_answer(await request.json())
        return JSONResponse(body, status_code=status)

    app = Starlette(
        routes=[
            Mount(
                STARLETTE,
                routes=[
                    Route("/contacts/{id}", contact),
                    Route("/messages", messages, methods=["POST"]),
                    Route("/webhooks", webhooks, methods=["POST"]),
                    Route("/usage/stream", stream),
                    Route("/slow", slow),
                    Route("/sleep/{ms:int}", sleep),
                    Route("/orders", orders, methods=["POST"]),
                ],
            )
        ]
    )
    return serve_asgi(OpsConsoleASGI(app, collector, **options))


STARLETTE_TEMPLATES = {"contacts": "/v4/contacts/{id}", "messages": "/v4/messages", "webhooks": "/v4/webhooks", "stream": "/v4/usage/stream"}
# The version prefix is taken out of the template (path_prefix=True), as Node's apiVersion option does.
STARLETTE_TEMPLATES = {k: v[len(STARLETTE):] for k, v in STARLETTE_TEMPLATES.items()}


def test_starlette_routes(console):
    suite.check_routes(console, start_starlette, STARLETTE, STARLETTE_TEMPLATES)


def test_starlette_percentiles(console):
    suite.check_percentiles(console, start_starlette, STARLETTE, "/sleep/{ms:int}")


def test_starlette_capture(console):
    suite.check_capture(console, start_starlette, STARLETTE)


def test_starlette_abandoned(console):
    suite.check_abandoned(console, start_starlette, STARLETTE, "/slow")


def test_fastapi_fast_path(console):
    suite.check_fast(console, start_fastapi, FASTAPI, FASTAPI_TEMPLATES)


def test_starlette_fast_path(console):
    suite.check_fast(console, start_starlette, STARLETTE, STARLETTE_TEMPLATES)
