import type { Step } from './dsl-types.ts';

/**
 * Every action name a list of steps calls, however deeply nested (if/for/while branches), with the
 * path of the step that calls it: checked when the configuration loads, so that a misspelt action
 * is refused then rather than failing on the day the step runs. Steps with a `target` are left out:
 * another instance runs them, with its own plugins.
 *
 * @example
 * actionsUsed(parseSteps([{ action: 'utils.echo' }], 'procedure.x')); // [{ action: 'utils.echo', path: 'procedure.x step 1' }]
 */
export function actionsUsed(steps: readonly Step[]): { action: string; path: string }[] {
  const out: { action: string; path: string }[] = [];
  const stack = [...steps].reverse();
  while (stack.length) {
    const step = stack.pop()!;
    switch (step.kind) {
      case 'action':
        // A step for another instance calls that instance's plugins, not this one's.
        if (step.target === null) out.push({ action: step.action, path: step.path });
        break;
      case 'if':
        for (const branch of [...step.branches].reverse())
          stack.push(...[...branch.steps].reverse());
        if (step.otherwise) stack.push(...[...step.otherwise].reverse());
        break;
      case 'for':
      case 'while':
        stack.push(...[...step.steps].reverse());
        break;
      default:
        break;
    }
  }
  return out;
}
