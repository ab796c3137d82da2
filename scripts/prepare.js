// npm's "prepare" step (run by `npm ci` / `npm install` in a checkout, and by `npm pack`): builds
// the server (dist/) and the web UI (web/dist/) once, so that `pipit start` runs built code
// without rebuilding. A production install (`npm ci --omit=dev`) has no compiler: it skips the build
// and says so (copy a built dist/ and web/dist/ in, as the Dockerfile does).
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (!existsSync('node_modules/typescript') || !existsSync('node_modules/vite')) {
  console.log(
    'pipit: no dev dependencies here: skipping the build (dist/ and web/dist/ are used as they are)',
  );
} else {
  execSync('npm run build --silent', { stdio: 'inherit' });
  execSync('npm run build:web --silent', { stdio: 'inherit' });
}
