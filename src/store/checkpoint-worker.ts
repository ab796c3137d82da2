// The WAL checkpointer's thread (see checkpointer.ts): its own connection to the database, which
// copies the write-ahead log into the database file when asked, so that the copy and its fsync
// never hold the service's event loop. Only node: modules: it starts fast and bundles as it is.
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';

const db = new DatabaseSync((workerData as { path: string }).path);
db.exec('PRAGMA busy_timeout = 5000');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');

parentPort!.on('message', (message: 'checkpoint' | 'close') => {
  if (message === 'close') {
    // Closed here, not torn down with the thread: the service's connection, closing last, then
    // folds the WAL into the database and removes it.
    db.close();
    parentPort!.close();
    return;
  }
  try {
    const result = checkpoint.get() as { busy: number; log: number; checkpointed: number };
    parentPort!.postMessage({ ok: true, ...result });
  } catch (err) {
    parentPort!.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) });
  }
});
