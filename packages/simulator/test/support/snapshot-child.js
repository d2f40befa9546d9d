// A child process of the snapshot kill walk: stages the archive given and installs it, with the
// crash seam armed (domain/durable.js: SIGKILL just before the Nth durable write).
//   node snapshot-child.js <data dir> <archive file> <N> <schema>
import { createReadStream } from 'node:fs';
import { installSnapshot, stageSnapshot } from '../../src/control/snapshot.js';
import { killAtWrite } from '../../src/domain/durable.js';

const [dataDir, archive, killAt, schema] = process.argv.slice(2);
killAtWrite(Number(killAt));
const { dir } = await stageSnapshot(dataDir, createReadStream(archive), { schema: Number(schema) });
installSnapshot(dataDir, dir);
console.log('installed');
