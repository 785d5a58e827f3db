import type { Database } from '../db/database';

const NAME = 'device_token_key';

/** SQL for the installation's device-token key, kept so that every server instance signs alike. */
export function tokenKeyRepository({ db }: Database) {
  return {
    /** Stores the offered key unless one is stored already; answers the key in force. */
    async keepFirst(offered: string): Promise<string> {
      await db
        .insertInto('secrets')
        .values({ name: NAME, value: offered })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const row = await db
        .selectFrom('secrets')
        .select('value')
        .where('name', '=', NAME)
        .executeTakeFirstOrThrow();
      return row.value;
    },
  };
}
/** SQL for the device-token key. */
export type TokenKeyRepository = ReturnType<typeof tokenKeyRepository>;
