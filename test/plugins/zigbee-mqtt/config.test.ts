import { describe, expect, it } from 'vitest';
import {
  prefixOf,
  tlsMinVersion,
  usesTls,
  ZigbeeMqttConfig,
} from '../../../src/plugins/zigbee-mqtt/config.ts';
import { makeApp, tempDir } from '../../helpers/service.ts';

// The zigbee.mqtt section, with Platypush's keys.

describe('zigbee.mqtt configuration', () => {
  it("takes a Platypush section as it is, with Platypush's defaults", () => {
    const c = ZigbeeMqttConfig.parse({
      host: 'broker.lan',
      topic_prefix: 'z2m',
      timeout: 5,
      username: 'u',
      password: 'p',
      tls_cafile: '/etc/ssl/ca.pem',
      tls_version: 'tlsv1.2',
      tls_ciphers: 'HIGH',
    });
    expect(c.port).toBe(1883);
    expect(prefixOf(c)).toBe('z2m');
    expect(usesTls(c)).toBe(true);
    expect(tlsMinVersion(c.tls_version!)).toBe('TLSv1.2');
    const d = ZigbeeMqttConfig.parse({ host: 'broker.lan' });
    expect([prefixOf(d), d.timeout, usesTls(d)]).toEqual(['zigbee2mqtt', 10, false]);
  });

  it("reads Platypush's older base_topic as topic_prefix", () => {
    expect(prefixOf(ZigbeeMqttConfig.parse({ host: 'h', base_topic: 'zb/' }))).toBe('zb');
  });

  it('refuses a misspelt key and a TLS version that is not one', () => {
    expect(ZigbeeMqttConfig.safeParse({ host: 'h', topic_prefx: 'x' }).success).toBe(false);
    const bad = ZigbeeMqttConfig.safeParse({ host: 'h', tls_version: 'ssl3' });
    expect(bad.error?.message).toMatch(/tlsv1\.2 or tlsv1\.3/);
  });

  it('a TLS file that cannot be read stops the start, naming the key and the path', async () => {
    const tmp = tempDir();
    try {
      await expect(
        makeApp('zigbee.mqtt:\n  host: 127.0.0.1\n  tls_cafile: /nonexistent/ca.pem\n', {
          dir: tmp.dir,
        }),
      ).rejects.toThrow(/zigbee\.mqtt\.tls_cafile: cannot read \/nonexistent\/ca\.pem/);
    } finally {
      tmp.cleanup();
    }
  });
});
