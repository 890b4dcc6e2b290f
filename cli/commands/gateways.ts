// onreco pins issue | show and onreco gateways exchange | remove: the store management page's
// gateway work (administrators and maintenance).
import { Command } from 'commander';
import { exchangeStoreGateway, getStorePin, reissueStorePin, removeGateway } from '../../app/domain/api/stores';
import { print, stampText } from '../output';
import { type CliContext, clientOf, examples, withJson } from './common';


export function pinsCommand(ctx: CliContext): Command {
  const issue = withJson(new Command('issue').description('issue a new gateway PIN for the store (the old one stops working)').argument('<store_id>')).action(async (storeId: string, options) => {
    const pin = await (await clientOf(ctx)).call(reissueStorePin, { store_id: storeId });
    print(ctx, options, pin, () => `PIN ${pin.pin_code} for store ${storeId}, valid until ${stampText(pin.effective_time) ?? '-'} (Japan time)\n`);
  });
  const show = withJson(new Command('show').description('the store\'s current PIN, if one is valid').argument('<store_id>')).action(async (storeId: string, options) => {
    const pin = await (await clientOf(ctx)).call(getStorePin, { store_id: storeId });
    print(ctx, options, pin, () => (pin.pin_code ? `PIN ${pin.pin_code} for store ${storeId}, valid until ${stampText(pin.effective_time) ?? '-'} (Japan time)\n` : `Store ${storeId} has no valid PIN: \`onreco pins issue ${storeId}\` issues one.\n`));
  });
  return new Command('pins')
    .description('gateway pairing PINs')
    .addCommand(examples(issue, 'onreco pins issue S0001'))
    .addCommand(examples(show, 'onreco pins show S0001 --json'));
}

export function gatewaysCommand(ctx: CliContext): Command {
  const exchange = withJson(
    new Command('exchange').description('exchange the store\'s gateway: the old one\'s token is revoked; pair the new one with a PIN').argument('<store_id>').argument('<new_gateway_info>'),
  ).action(async (storeId: string, gatewayInfo: string, options) => {
    const result = await (await clientOf(ctx)).call(exchangeStoreGateway, { store_id: storeId, gateway_info: gatewayInfo });
    print(ctx, options, result, () => `Store ${storeId} now has gateway ${result.gateway_info}; it waits for its first upload (pair it with \`onreco pins issue ${storeId}\`).\n`);
  });
  const remove = withJson(new Command('remove').description('remove (撤去) the store\'s gateway').argument('<store_id>')).action(async (storeId: string, options) => {
    const removed = await (await clientOf(ctx)).call(removeGateway, { store_id: storeId, gateway_info: '' });
    print(ctx, options, removed, () => `Removed gateway ${removed.gateway_info} of store ${storeId}; the store is removed (撤去).\n`);
  });
  return new Command('gateways')
    .description('store gateways: exchange, remove')
    .addCommand(examples(exchange, 'onreco gateways exchange S0001 GW-2026-0042'))
    .addCommand(examples(remove, 'onreco gateways remove S0001'));
}
