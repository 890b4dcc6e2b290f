import type { GatewayConfig } from '../config';
import type { Logger } from '../log';
import type { StoreSensor } from '../state';
import { BluezSource } from './bluez-source';
import { ReplaySource } from './replay-source';
import { SimulateSource } from './simulate-source';
import type { AdvertisementSource, SourceHandlers } from './types';

export type { AdvertisementSource, HeardAdvertisement, SourceHandlers } from './types';

/** The source named by `--source` (bluez, simulate, replay:FILE). */
export function createSource(
  config: Pick<GatewayConfig, 'source' | 'adapter' | 'bluezStallSeconds' | 'simulateSpeed'>,
  sensors: () => readonly StoreSensor[],
  handlers: SourceHandlers,
  logger: Logger,
): AdvertisementSource {
  const log = logger.child({ module: 'source' });
  if (config.source.startsWith('replay:')) return new ReplaySource(config.source.slice('replay:'.length), handlers, log);
  if (config.source === 'simulate') return new SimulateSource({ sensors, speed: config.simulateSpeed }, handlers, log);
  return new BluezSource({ adapter: config.adapter, stallMs: config.bluezStallSeconds * 1000 }, handlers, log);
}
