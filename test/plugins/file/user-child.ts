// Runs one file action through makeApp/call and prints its result as JSON, so permissions.test.ts
// can run it as an unprivileged user when the suite runs as root (root bypasses permission checks):
// `node user-child.ts <dir> <root> <action> <args as JSON>`.
import { call } from '../call.ts';
import { makeApp } from '../../helpers/service.ts';
import { pipitDir } from './file-app.ts';

const [dir, root, action, args] = process.argv.slice(2) as [string, string, string, string];
const t = await makeApp(`file:\n  roots: [${JSON.stringify(root)}]\n`, {
  dir: pipitDir(dir),
});
const res = await call(t, action, JSON.parse(args) as Record<string, unknown>);
await t.close();
process.stdout.write(JSON.stringify(res));
