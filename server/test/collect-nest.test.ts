// NestJS on its Express and its Fastify platform, each with the collector installed as Nest's
// users install middleware (`app.use(collectExpress(…))`, `app.register(collectFastify(…))`),
// served on loopback: the checks every adapter passes. Nest's decorators are applied as the
// functions they are, since Node runs this file's TypeScript without transforming it.
import 'reflect-metadata';
import { Body, Controller, Get, Header, HttpCode, Module, Param, Post, Res, StreamableFile } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestApplicationContextOptions } from '@nestjs/common/interfaces/nest-application-context-options.interface.js';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { collectExpress, collectFastify } from '../src/index.ts';
import { SLOW_MS, collectorSuite, orderAnswer, slowArrivals, type StartApp } from './collect-suite.ts';

class SampleApi {
  contact(id: string) {
    return { id };
  }
  order(body: unknown, reply: { status(code: number): unknown }) {
    const [status, answer] = orderAnswer(body);
    reply.status(status);
    return answer;
  }
  message() {
    return 'created';
  }
  webhook(): never {
    throw new Error('the webhook target refused');
  }
  stream() {
    const chunks = (async function* () {
      for (let i = 0; i < 3; i++) {
        yield Buffer.from('chunk-');
        await sleep(20);
      }
    })();
    return new StreamableFile(Readable.from(chunks), { type: 'text/plain' });
  }
  async slow() {
    slowArrivals.emit('arrived');
    await sleep(SLOW_MS);
    return 'late';
  }
}

/** Applies a method decorator (and parameter decorators, by index) as the `@` syntax would. */
function decorate(name: keyof SampleApi, decorators: MethodDecorator[], parameters: ParameterDecorator[] = []) {
  const descriptor = Object.getOwnPropertyDescriptor(SampleApi.prototype, name)!;
  parameters.forEach((parameter, index) => parameter(SampleApi.prototype, name, index));
  for (const decorator of decorators.reverse()) decorator(SampleApi.prototype, name, descriptor);
  Object.defineProperty(SampleApi.prototype, name, descriptor);
}
decorate('contact', [Get('contacts/:id')], [Param('id')]);
decorate('order', [Post('orders')], [Body(), Res({ passthrough: true })]);
decorate('message', [Post('messages'), HttpCode(201), Header('content-type', 'text/plain')]);
decorate('webhook', [Post('webhooks')]);
decorate('stream', [Get('usage/stream')]);
decorate('slow', [Get('slow')]);
Controller('v2')(SampleApi);
// A Nest module is a class that only carries its decorator's metadata.
// eslint-disable-next-line @typescript-eslint/no-extraneous-class
class SampleModule {}
Module({ controllers: [SampleApi] })(SampleModule);
/** Nest's own logger off: the thrown error of POST /v2/webhooks is the test's, not news. */
const quiet = Object.assign(new NestApplicationContextOptions(), { logger: false as const });

const served = async (app: NestExpressApplication | NestFastifyApplication) => {
  await app.listen(0, '127.0.0.1');
  const origin = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  return {
    origin,
    close: async () => {
      app.getHttpServer().closeAllConnections();
      await app.close();
    },
  };
};

const onExpress: StartApp = async (collector, options) => {
  const app = await NestFactory.create<NestExpressApplication>(SampleModule, new ExpressAdapter(), quiet);
  app.use(collectExpress(collector, options));
  return served(app);
};
const onFastify: StartApp = async (collector, options) => {
  const app = await NestFactory.create<NestFastifyApplication>(SampleModule, new FastifyAdapter(), quiet);
  // Nest's Fastify platform brings its own copy of Fastify: the plugin's types name the project's.
  await app.register(collectFastify(collector, options) as unknown as Parameters<NestFastifyApplication['register']>[0]);
  return served(app);
};

collectorSuite('NestJS on Express', onExpress);
collectorSuite('NestJS on Fastify', onFastify);
