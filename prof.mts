const root = process.cwd();
const { openDatabase } = await import(`${root}/server/db/database.ts`);
const { migrateToLatest } = await import(`${root}/server/db/migrate.ts`);
const { seedCrowd, copyVotes } = await import(`${root}/cli/bench/science-crowd.ts`);
const { estimateReliability, analyzeScienceTables } = await import(`${root}/server/science/reliability.ts`);
const fs = await import('node:fs');
const [targets, votes, volunteers, url] = [Number(process.argv[2]), Number(process.argv[3]), Number(process.argv[4]), process.argv[5]];
const dir = '/tmp/i41-exp/db-' + process.pid;
const { db } = await openDatabase({ directory: dir, databaseUrl: url });
await migrateToLatest(db);
let t = performance.now(); let c = process.cpuUsage();
const lap = (what: string) => { const d = process.cpuUsage(c); console.log(what, ((performance.now() - t) / 1000).toFixed(2), 's wall', ((d.user + d.system) / 1e6).toFixed(2), 's cpu', (process.memoryUsage().rss / 2**20).toFixed(0), 'MiB rss'); t = performance.now(); c = process.cpuUsage(); };
const crowd = await seedCrowd(db, { targets, volunteers, seed: 2 });
lap('seed crowd');
await copyVotes(db, crowd, votes);
lap('copy votes');
await analyzeScienceTables(db);
lap('analyze');
for (const run of [1, 2]) {
  const r = await estimateReliability(db, { worker: process.env.WORKER === '1' });
  lap(`estimate ${run} it=${r.iterations} read=${(r.readMs/1000).toFixed(2)} iter=${(r.iterateMs/1000).toFixed(2)} write=${(r.writeMs/1000).toFixed(2)}`);
}
await db.destroy();
fs.rmSync(dir, { recursive: true, force: true });
