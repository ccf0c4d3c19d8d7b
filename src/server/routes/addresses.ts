// The shopper's address book (issue 11): every call answers the whole list, default first, then newest.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { UserIdParam } from '../account-schemas.ts';
import { BEARER } from '../auth/bearer.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import type { Database } from '../db/client.ts';
import { AddressInputSchema, AddressListSchema } from '../order-schemas.ts';
import { ErrorSchema, positiveId } from '../schemas.ts';
import { addAddress, addressesOf, makeDefaultAddress, removeAddress, updateAddress, type SavedAddress } from '../services/addresses.ts';
import { groupOfPin } from '../../lib/delivery-area.ts';
import type { StoreSettingsData } from '../../lib/store-settings-schema.ts';
import { json } from './openapi.ts';
import { shopperOfPath } from './owner.ts';

const body = <T>(schema: T) => ({ body: { content: { 'application/json': { schema } }, required: true } });
const AddressIdParam = z.object({ id: positiveId('id') });

const errors = {
  400: json(ErrorSchema, 'Bad input: the message names the field'),
  401: json(ErrorSchema, 'Not signed in'),
  404: json(ErrorSchema, 'No such address of yours'),
} as const;

export function registerAddressRoutes(
  app: OpenAPIHono,
  db: Database,
  authenticate: (c: Context) => Promise<AccessClaims>,
  /** store.yaml's serviceable area; none: every PIN code is served. */
  area?: StoreSettingsData['area'],
) {
  const me = async (c: Context) => (await authenticate(c)).userId;
  // An address outside the area may be kept (a shopper moving house), but the list says so: it cannot be ordered to.
  const listOf = (addresses: SavedAddress[]) => ({
    addresses: addresses.map((address) => ({ ...address, served: !area || groupOfPin(address.pincode, area.groups) !== undefined })),
  });

  app.openapi(
    createRoute({
      method: 'get',
      path: '/app/Addresses/GetAddressesByUser/{userId}',
      tags: ['Addresses'],
      summary: 'The saved delivery addresses (0 = me), default first, then newest',
      security: BEARER,
      request: { params: UserIdParam },
      responses: { 200: json(AddressListSchema, 'The addresses'), ...errors },
    }),
    async (c) => {
      const userId = await shopperOfPath(c, authenticate, c.req.valid('param').userId, 'addresses');
      return c.json(listOf(await addressesOf(db, userId)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/app/Addresses',
      tags: ['Addresses'],
      summary: 'Save an address; the first one (or one sent with isDefault: true) is the default',
      description: 'An address outside the delivery area (store.yaml) is saved too, and listed with served: false: orders to it are refused.',
      security: BEARER,
      request: body(AddressInputSchema),
      responses: {
        201: json(AddressListSchema, 'The addresses after the add'),
        ...errors,
        409: json(ErrorSchema, 'Already the most addresses one shopper can keep'),
      },
    }),
    async (c) => {
      const userId = await me(c);
      return c.json(listOf(await addAddress(db, userId, c.req.valid('json'))), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/app/Addresses/{id}',
      tags: ['Addresses'],
      summary: 'Change an address (all fields); isDefault: true makes it the default',
      security: BEARER,
      request: { params: AddressIdParam, ...body(AddressInputSchema) },
      responses: { 200: json(AddressListSchema, 'The addresses after the change'), ...errors },
    }),
    async (c) => {
      const userId = await me(c);
      return c.json(listOf(await updateAddress(db, userId, c.req.valid('param').id, c.req.valid('json'))), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/app/Addresses/{id}/Default',
      tags: ['Addresses'],
      summary: 'Make an address the default',
      security: BEARER,
      request: { params: AddressIdParam },
      responses: { 200: json(AddressListSchema, 'The addresses, this one first'), ...errors },
    }),
    async (c) => {
      const userId = await me(c);
      return c.json(listOf(await makeDefaultAddress(db, userId, c.req.valid('param').id)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/app/Addresses/{id}',
      tags: ['Addresses'],
      summary: 'Remove an address; removing the default makes the newest remaining one the default',
      security: BEARER,
      request: { params: AddressIdParam },
      responses: { 200: json(AddressListSchema, 'The addresses after the removal'), ...errors },
    }),
    async (c) => {
      const userId = await me(c);
      return c.json(listOf(await removeAddress(db, userId, c.req.valid('param').id)), 200);
    },
  );
}
