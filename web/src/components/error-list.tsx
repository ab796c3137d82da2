import { asSentence } from '../lib/format.ts';

/** Server or validation messages, announced to screen readers as they appear. */
export function ErrorList({ errors, title }: { errors: string[]; title?: string }) {
  if (!errors.length) return null;
  return (
    <div class="alert alert-error" role="alert">
      {title ? <strong>{title}</strong> : null}
      {errors.length === 1 && !title ? (
        <p>{asSentence(errors[0]!)}</p>
      ) : (
        <ul>
          {errors.map((e, i) => (
            <li key={i}>{asSentence(e)}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
