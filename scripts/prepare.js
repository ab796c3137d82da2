// npm's "prepare" step (run by `npm ci` / `npm install` in a checkout, and by `npm pack`): builds
// the server (dist/) and the web UI (web/dist/) once, so that `pipit start` runs built code
// without rebuilding. A production install (`npm ci --omit=dev`) has no compiler: it skips the build
// and says so (copy a built dist/ and web/dist/ in, as the Dockerfile does).
import { execSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, symlinkSync, unlinkSync } from 'node:fs';

// `pipit` among the checkout's own commands (node_modules/.bin), as an installed package has it:
// `npx pipit` then finds it at once. Without it npm looked the name up in the registry first,
// which cost a round trip on every command (minutes with no network), and
// `export PATH="$PWD/node_modules/.bin:$PATH"` makes a plain `pipit` work in the checkout.
if (existsSync('node_modules') && existsSync('bin/pipit.js')) {
  mkdirSync('node_modules/.bin', { recursive: true });
  const link = 'node_modules/.bin/pipit';
  try {
    if (lstatSync(link)) unlinkSync(link);
  } catch {
    // not there yet
  }
  symlinkSync('../../bin/pipit.js', link);
}

if (!existsSync('node_modules/typescript') || !existsSync('node_modules/vite')) {
  console.log(
    'pipit: no dev dependencies here: skipping the build (dist/ and web/dist/ are used as they are)',
  );
} else {
  execSync('npm run build --silent', { stdio: 'inherit' });
  execSync('npm run build:web --silent', { stdio: 'inherit' });
}
