// Reads a target list through readTargets without keeping the rows, and prints the count and
// the process's peak heap and resident memory as JSON: the bounded-memory check of the target
// list test runs it in a child with a small heap.
import { readTargets } from '../../skydata/import/targets';

let count = 0;
let peakHeap = 0;
let peakRss = 0;
for await (const _target of readTargets(process.argv[2])) {
  count++;
  if (count % 1000 === 0) {
    const usage = process.memoryUsage();
    peakHeap = Math.max(peakHeap, usage.heapUsed);
    peakRss = Math.max(peakRss, usage.rss);
  }
}
process.stdout.write(JSON.stringify({ count, peakHeap, peakRss }));
