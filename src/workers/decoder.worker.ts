// A decoder worker: loads the wasm core once and exposes DecoderApi through comlink.
// Runs as a browser module worker, or as a Node worker_threads worker (CLI and tests).
// The API is exposed synchronously: messages posted before the wasm is compiled wait on it
// instead of being dropped.
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { loadCore } from '../../core/wasm';
import { createDecoderApi } from './decoder-api';

function workerEndpoint(): Comlink.Endpoint {
  if (typeof self !== 'undefined' && 'postMessage' in self) return self as unknown as Comlink.Endpoint;
  const threads = process.getBuiltinModule('node:worker_threads') as typeof import('node:worker_threads');
  if (!threads.parentPort) throw new Error('decoder.worker must run inside a worker');
  return nodeEndpoint(threads.parentPort);
}

Comlink.expose(createDecoderApi(loadCore()), workerEndpoint());
