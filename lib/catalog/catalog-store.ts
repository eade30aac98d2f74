// Which store holds a workspace's catalog (issue 39): its own SQLite file by default.

import { catalogConnection } from "@/lib/catalog/catalog";
import { SqliteCatalogStore } from "@/lib/catalog/sqlite-store";
import type { CatalogStore } from "@/lib/catalog/store";
import type { CoreContext } from "@/lib/context";

/** One SQLite store per open connection: its statements are prepared once per connection. */
const sqliteStores = new WeakMap<object, SqliteCatalogStore>();

/**
 * The store of the workspace's catalog for one use: the workspace's SQLite catalog
 * (lib/catalog/catalog opens it where it can and heals it; call this inside `withCatalog`, so a
 * use that met it broken runs again on a new one).
 */
export function catalogStore(ctx: CoreContext): CatalogStore {
  const { db, file } = catalogConnection(ctx);
  let store = sqliteStores.get(db);
  if (!store) sqliteStores.set(db, (store = new SqliteCatalogStore(db, file)));
  return store;
}
