import type { Database } from '../db/database';

/** The database round trip behind the health check. */
export function healthRepository({ db }: Database) {
  return {
    /** Answers once the database served a query; throws when it cannot. */
    async ping(): Promise<void> {
      await db.selectFrom('secrets').select('name').limit(1).execute();
    },
  };
}
/** The database round trip behind the health check. */
export type HealthRepository = ReturnType<typeof healthRepository>;
