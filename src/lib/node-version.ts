/**
 * The Node.js major version Pipit needs: node:sqlite without a flag, type stripping, and the
 * `using` keyword all arrived by 24.
 *
 * @example
 * if (nodeMajor() < REQUIRED_NODE_MAJOR) console.error(nodeVersionMessage());
 */
export const REQUIRED_NODE_MAJOR = 24;

/** The running Node's major version. @example nodeMajor(); // 24 */
export const nodeMajor = (): number => Number(process.versions.node.split('.')[0]);

/**
 * What to tell someone who runs Pipit on an older Node.js, and how to get the right one.
 *
 * @example
 * nodeVersionMessage('20.20.2'); // 'Pipit needs Node.js 24 or newer, and this is Node.js 20.20.2. …'
 */
export function nodeVersionMessage(version = process.versions.node): string {
  return (
    `Pipit needs Node.js ${REQUIRED_NODE_MAJOR} or newer, and this is Node.js ${version}. ` +
    `Install Node.js ${REQUIRED_NODE_MAJOR} (https://nodejs.org, or your distribution's nodejs package), ` +
    `or run your program with the Node.js ${REQUIRED_NODE_MAJOR} that Pipit's dependencies install ` +
    `(node_modules/.bin/node, or "npm exec -- node your-script.js").`
  );
}

// Imported by src/store/db.ts, so that it runs before node:sqlite is required (also in the bundle,
// which keeps dependency order): an older Node gets this sentence at `import 'pipit'` instead of
// ERR_UNKNOWN_BUILTIN_MODULE. Nothing in the graph imports node:sqlite statically.
if (nodeMajor() < REQUIRED_NODE_MAJOR) throw new Error(nodeVersionMessage());
