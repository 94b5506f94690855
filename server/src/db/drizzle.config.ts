// drizzle-kit configuration: `npx drizzle-kit generate --config server/src/db/drizzle.config.ts` writes a
// new SQL migration after a change to schema.ts. The same folder migrates PGlite and PostgreSQL.
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // Every schema file: a file left out here would make the next migration drop its tables.
  schema: [
    './server/src/db/schema.ts',
    './server/src/db/schema-signals.ts',
    './server/src/db/schema-trades.ts',
    './server/src/db/schema-statistics.ts',
  ],
  out: './server/src/db/migrations',
});
