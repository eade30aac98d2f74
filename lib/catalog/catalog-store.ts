// Which store holds a workspace's catalog (issue 39): its own SQLite file by default, the team
// server's PostgreSQL database when one is named.

import { catalogConnection } from "@/lib/catalog/catalog";
import { postgresCatalogStore } from "@/lib/catalog/postgres/store";
import { SqliteCatalogStore } from "@/lib/catalog/sqlite-store";
import type { CatalogStore } from "@/lib/catalog/store";
import type { CoreContext } from "@/lib/context";

/** One SQLite store per open connection: its statements are prepared once per connection. */
const sqliteStores = new WeakMap<object, SqliteCatalogStore>();

/**
 * The PostgreSQL database the process's catalog lives in: `CASEFILE_DATABASE_URL` (set by
 * `casefile serve --database URL` for its process and the workers it starts), null for SQLite.
 */
export function catalogDatabaseUrl(env: NodeJS.ProcessEnv = process.env): string | null {
  return env.CASEFILE_DATABASE_URL?.trim() || null;
}

/**
 * The store of the workspace's catalog for one use: the team server's PostgreSQL database when
 * {@link catalogDatabaseUrl} names one (lib/catalog/postgres/store: its pool opened and migrated
 * on first use), else the workspace's SQLite catalog (lib/catalog/catalog opens it where it can
 * and heals it; call this inside `withCatalog`, so a use that met it broken runs again on a new one).
 */
export function catalogStore(ctx: CoreContext): CatalogStore {
  const url = catalogDatabaseUrl();
  if (url !== null) return postgresCatalogStore(url);
  const { db, file } = catalogConnection(ctx);
  let store = sqliteStores.get(db);
  if (!store) sqliteStores.set(db, (store = new SqliteCatalogStore(db, file)));
  return store;
}
