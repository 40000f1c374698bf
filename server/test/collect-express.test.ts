// The Express middleware on a real Express 5 app (routes in a router mounted at /v2, the host's
// own error handler), served on loopback: the checks every adapter passes.
import express, { type ErrorRequestHandler } from 'express';
import type { AddressInfo } from 'node:net';
import { collectExpress } from '../src/index.ts';
import { SLOW_MS, collectorSuite, orderAnswer, slowArrivals } from './collect-suite.ts';

collectorSuite('Express', async (collector, options) => {
  const app = express();
  app.use(collectExpress(collector, options));
  const v2 = express.Router();
  v2.get('/contacts/:id', (request, response) => void response.json({ id: request.params['id'] }));
  v2.post('/messages', (_, response) => void response.status(201).send('created'));
  v2.post('/orders', express.json(), (request, response) => {
    const [status, body] = orderAnswer(request.body);
    response.status(status).json(body);
  });
  v2.post('/webhooks', () => {
    throw new Error('the webhook target refused');
  });
  v2.get('/usage/stream', (_, response) => {
    let sent = 0;
    const timer = setInterval(() => {
      response.write('chunk-');
      if (++sent === 3) {
        clearInterval(timer);
        setTimeout(() => response.end(), 20);
      }
    }, 20);
  });
  v2.get('/slow', (_, response) => {
    slowArrivals.emit('arrived');
    setTimeout(() => response.send('late'), SLOW_MS);
  });
  app.use('/v2', v2);
  // Express knows an error handler by its four parameters.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const onError: ErrorRequestHandler = (_error, _request, response, _next) => void response.status(500).send('Internal Server Error');
  app.use(onError);
  const server = await new Promise<ReturnType<typeof app.listen>>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
});
