// The database schema (drizzle-orm), one file per domain under schema/. The code and drizzle-kit
// (apps/server/drizzle.config.ts) read it through this index; migrations: migrations/ (npm run db:generate).
export * from './schema/auth.ts';
export * from './schema/business.ts';
export * from './schema/customers.ts';
export * from './schema/materials.ts';
export * from './schema/notifications.ts';
export * from './schema/products.ts';
export * from './schema/projects.ts';
export * from './schema/risk-control.ts';
export * from './schema/sales.ts';
export * from './schema/system.ts';
