/**
 * The catalog store suite on SQLite (issue 39): the same cases as on PostgreSQL
 * (store-postgres.test.ts), each on a new catalog in memory.
 */
import { memoryCatalogStore } from "@/lib/catalog/sqlite-store";
import { storeSearchSuite } from "@/lib/catalog/store-search-suite";
import { storeSuite } from "@/lib/catalog/store-suite";

const open = () => Promise.resolve(memoryCatalogStore());

storeSuite(open);
storeSearchSuite(open);
