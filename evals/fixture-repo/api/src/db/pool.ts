import pg from "pg";

/** Creates the PostgreSQL connection pool shared by every service. */
export function createPool(databaseUrl: string): pg.Pool {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 10,
    idleTimeoutMillis: 30_000,
    statement_timeout: 5_000,
  });
  pool.on("error", (err) => console.error("idle postgres client error", err));
  return pool;
}

/**
 * Runs `work` inside a transaction: BEGIN, then COMMIT on success or ROLLBACK on any error.
 * The client always goes back to the pool.
 */
export async function withTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (err) {
    await client.query("ROLLBACK");
    throw err;
  } finally {
    client.release();
  }
}
