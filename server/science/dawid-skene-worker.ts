// The Dawid–Skene iterations (./dawid-skene.ts) on a worker thread, so that a serving process's
// event loop answers volunteers while an estimate over millions of answers runs
// (./reliability.ts). The columns arrive as a copy; the results go back transferred.
import { parentPort } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { estimateDawidSkene, type EstimateInput, type EstimateOutput } from './dawid-skene';

export interface DawidSkeneApi {
  estimate(input: EstimateInput): EstimateOutput;
}

const api: DawidSkeneApi = {
  estimate(input) {
    const output = estimateDawidSkene(input);
    const { sums } = output;
    const arrays = [
      output.rates,
      output.galaxyTypeAnswers,
      output.interactionAnswers,
      output.allAnswers,
      output.priors,
      output.priorsEstimated,
      ...sums.counts,
      ...sums.weights,
      sums.galaxyTypeEvidence,
      sums.interactionEvidence,
    ];
    return Comlink.transfer(
      output,
      arrays.map((array) => array.buffer as ArrayBuffer),
    );
  },
};

if (!parentPort) throw new Error('dawid-skene-worker must run inside a worker');
Comlink.expose(api, nodeEndpoint(parentPort));
