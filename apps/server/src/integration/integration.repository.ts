import type { Selectable } from 'kysely';
import type { Database } from '../db/database';
import type { IntegrationTokensTable } from '../db/schema';
import { deleteMatching } from '../db/keyed';

/** A stored integration token. */
export type IntegrationTokenRow = Selectable<IntegrationTokensTable>;
/** A stored token with the MACs it is limited to (empty when it covers every device). */
export type IntegrationTokenWithDevices = IntegrationTokenRow & { macs: string[] };

/** SQL for integration tokens. */
export function integrationRepository({ db }: Database) {
  return {
    /** A user's tokens, newest first, each with the MACs it is limited to. */
    async listForUser(userId: number): Promise<IntegrationTokenWithDevices[]> {
      const tokens = await db
        .selectFrom('integration_tokens')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .execute();
      if (tokens.length === 0) return [];
      const links = await db
        .selectFrom('integration_token_devices as l')
        .innerJoin('devices as d', 'd.id', 'l.device_id')
        .select(['l.token_id', 'd.mac'])
        .where(
          'l.token_id',
          'in',
          tokens.map((t) => t.id),
        )
        .orderBy('d.mac')
        .execute();
      return tokens.map((t) => ({ ...t, macs: links.filter((l) => l.token_id === t.id).map((l) => l.mac) }));
    },
    async countForUser(userId: number): Promise<number> {
      const r = await db
        .selectFrom('integration_tokens')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    /** Stores a token and its device limits in one transaction; answers its id. */
    create(
      row: Omit<IntegrationTokenRow, 'id' | 'last_used_at_ms'>,
      deviceIds: readonly number[],
    ): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const { id } = await trx
          .insertInto('integration_tokens')
          .values({ ...row, last_used_at_ms: null })
          .returning('id')
          .executeTakeFirstOrThrow();
        if (deviceIds.length > 0) {
          await trx
            .insertInto('integration_token_devices')
            .values(deviceIds.map((device_id) => ({ token_id: id, device_id })))
            .execute();
        }
        return id;
      });
    },
    /** Deletes one of the user's tokens; answers whether there was one. */
    async delete(userId: number, id: number): Promise<boolean> {
      return deleteMatching(db, 'integration_tokens', { id, user_id: userId });
    },
    findByHash(tokenHash: string): Promise<IntegrationTokenRow | undefined> {
      return db
        .selectFrom('integration_tokens')
        .selectAll()
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
    },
    /** Ids of the devices a limited token may read. */
    async deviceIds(tokenId: number): Promise<Set<number>> {
      const rows = await db
        .selectFrom('integration_token_devices')
        .select('device_id')
        .where('token_id', '=', tokenId)
        .execute();
      return new Set(rows.map((r) => r.device_id));
    },
    async touch(tokenId: number, atMs: number): Promise<void> {
      await db
        .updateTable('integration_tokens')
        .set({ last_used_at_ms: atMs })
        .where('id', '=', tokenId)
        .execute();
    },
  };
}
/** SQL for integration tokens. */
export type IntegrationRepository = ReturnType<typeof integrationRepository>;
