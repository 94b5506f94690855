import { egressIpAnswer } from '../../../contracts/relay';
import { apiGet } from '../../lib/api-client';

/** GET /api/exchange_relay/egress_ip/{platform_uuid}/ → the address the platform's exchange sees (docs/relay.md). */
export async function getEgressIp(platformUuid: string): Promise<string | null> {
  const answer = await apiGet(`exchange_relay/egress_ip/${platformUuid}/`, egressIpAnswer);
  return answer.result.egress_ip;
}
