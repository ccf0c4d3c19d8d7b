// The serviceable area's public call (issue 25): whether the shop delivers to a PIN code, with the fee, the minimum
// order and the next slot there. Public and the same for everyone, so the header and /deliver-to can ask it.
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Database } from '../db/client.ts';
import type { StoreSettingsData } from '../../lib/store-settings-schema.ts';
import { DeliveryAreaSchema, PincodeParam } from '../order-schemas.ts';
import { ErrorSchema } from '../schemas.ts';
import { deliveryAreaOf } from '../services/delivery-area.ts';
import { json, PUBLIC } from './openapi.ts';

export function registerDeliveryAreaRoutes(
  app: OpenAPIHono,
  db: Database,
  settings: Pick<StoreSettingsData, 'area' | 'offers' | 'delivery'> & { now: () => Date },
) {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/app/DeliveryArea/{pincode}',
      tags: ['Orders'],
      summary: 'Whether the shop delivers to a PIN code, with the delivery fee, the minimum order and the next open slot there',
      description: 'A PIN code outside the area answers 200 with served: false and a message to show ("We don\'t deliver to 110024 yet.").',
      security: PUBLIC,
      request: { params: PincodeParam },
      responses: { 200: json(DeliveryAreaSchema, 'Served or not'), 400: json(ErrorSchema, 'Not a PIN code (6 digits, not starting with 0)') },
    }),
    async (c) => {
      const answer = await deliveryAreaOf(db, settings, settings.now(), c.req.valid('param').pincode);
      // The next slot moves as the day goes on: a minute's caching at most.
      c.header('Cache-Control', 'public, max-age=60');
      return c.json(answer, 200);
    },
  );
}
