import { useEffect, useState } from 'preact/hooks';

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // The Clipboard API needs a secure context (https or localhost); over plain http on a LAN
    // address fall back to the legacy command on a temporary text area.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.className = 'offscreen';
    document.body.append(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

/** A button that copies text and says so (politely announced) for a moment. */
export function CopyButton({
  text,
  label,
  class: cls,
}: {
  text: string;
  label: string;
  class?: string;
}) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const t = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(t);
  }, [state]);
  return (
    <button
      type="button"
      class={`button button-secondary ${cls ?? ''}`}
      onClick={() => void copyText(text).then((ok) => setState(ok ? 'copied' : 'failed'))}
    >
      {label}
      <span class="copy-status" aria-live="polite">
        {state === 'copied' ? ' ✓ Copied' : state === 'failed' ? ' — copy failed' : ''}
      </span>
    </button>
  );
}
