// Websocket events of SPEC.md §7, as { event, message } frames.
import { z } from 'zod';
import { bitcoinPublicInformation } from './public';

export const bitcoinPublicInformationEvent = z.object({
  event: z.literal('bitcoin_public_information_from_core'),
  message: z.object({ bitcoin_public_information: bitcoinPublicInformation }),
});

export const badEvent = z.object({
  event: z.literal('bad_event'),
  message: z.object({ detail: z.string() }),
});

/** Every event the server sends; the SPA parses frames with this union. */
export const serverEvent = z.discriminatedUnion('event', [bitcoinPublicInformationEvent, badEvent]);
export type ServerEvent = z.infer<typeof serverEvent>;
