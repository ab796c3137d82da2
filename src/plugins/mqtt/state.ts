import type { Logger } from '../../core/logger.ts';
import type { Services } from '../../core/services.ts';
import type { BrokerOptions } from './broker.ts';
import type { MqttConfig, TlsSetting } from './config.ts';
import type { MqttConnection } from './connection.ts';
import type { BrokerHostRules } from './hosts.ts';

/** What the mqtt plugin's actions share. */
export interface MqttState {
  config: MqttConfig;
  tls: TlsSetting;
  deviceId: string;
  log: Logger;
  services: Services;
  /** The configured broker's connection; undefined without `mqtt.host`. */
  main: MqttConnection | undefined;
  /** What brokers named in a call must match; undefined = any. */
  hostRules: BrokerHostRules | undefined;
  /** Connections to other brokers that `mqtt.subscribe` opened, by broker key. */
  others: Map<string, MqttConnection>;
  /** Opens (and starts) a long-lived connection that turns messages into events. */
  connect(broker: BrokerOptions): MqttConnection;
}
