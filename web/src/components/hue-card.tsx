import { useEffect, useState } from 'preact/hooks';
import { messagesOf } from '../lib/api.ts';
import { connectHue, fetchHueStatus } from '../lib/hue.ts';
import type { HueStatus } from '../lib/hue.ts';
import { useTransient } from '../lib/transient.ts';
import { ErrorList } from './error-list.tsx';

function pill(status: HueStatus | null | undefined): [string, string] {
  if (status === undefined) return ['pill-connecting', 'Checking…'];
  if (status === null) return ['pill-neutral', 'Not configured'];
  if (!status.paired) return ['pill-connecting', 'Not paired'];
  return status.connected ? ['pill-ok', 'Connected'] : ['pill-connecting', 'Not reachable'];
}

/**
 * Settings → Integrations → Philips Hue: whether `light.hue` is configured, paired and reaching
 * its bridge, and Connect (pairing after a press of the bridge's link button).
 *
 * @example
 * <HueCard />
 */
export function HueCard() {
  const [status, setStatus] = useState<HueStatus | null | undefined>(undefined);
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [note, showNote, clearNote] = useTransient();

  const load = () =>
    fetchHueStatus()
      .then(setStatus)
      .catch((err: unknown) => setErrors(messagesOf(err)));
  useEffect(() => void load(), []);

  const connect = async () => {
    setBusy(true);
    setErrors([]);
    clearNote();
    try {
      const res = await connectHue();
      showNote(res.already ? 'Already paired with the bridge.' : 'Paired with the bridge.');
      await load();
    } catch (err) {
      setErrors(messagesOf(err));
    } finally {
      setBusy(false);
    }
  };

  const [pillClass, pillText] = pill(status);
  return (
    <section class="card integration" aria-labelledby="hue-title">
      <div class="card-head">
        <h3 id="hue-title">Philips Hue</h3>
        <span class={`pill ${pillClass}`}>{pillText}</span>
      </div>
      <p class="muted">
        The <code>light.hue</code> plugin: lights, rooms and scenes of a Hue bridge on your network.
      </p>
      {status === null ? (
        <div class="setup">
          <p>
            Add a section with the bridge’s address to Pipit’s configuration file, restart Pipit,
            then come back here:
          </p>
          <pre
            class="code"
            aria-label="Configuration example"
          >{`light.hue:\n  bridge: 192.168.1.20`}</pre>
        </div>
      ) : null}
      {status ? (
        <>
          <p class="lead">
            Bridge <code>{status.bridge}</code>:{' '}
            {status.paired
              ? status.connected
                ? `${status.lights.length} lights.`
                : status.detail
              : 'not paired yet.'}
          </p>
          {!status.paired || !status.connected ? (
            <>
              <div class="button-row">
                <button
                  type="button"
                  class="button button-primary"
                  disabled={busy}
                  onClick={() => void connect()}
                >
                  {busy ? 'Waiting for the button…' : 'Connect'}
                </button>
              </div>
              <p class="hint">
                Press the round link button on the bridge first, then Connect within 30 s.
              </p>
            </>
          ) : null}
        </>
      ) : null}
      <p class="status-line" role="status">
        {note}
      </p>
      <ErrorList errors={errors} />
    </section>
  );
}
