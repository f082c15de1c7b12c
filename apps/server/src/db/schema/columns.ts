// Column helpers the tables share.

import { bigint, bigserial, customType, timestamp } from 'drizzle-orm/pg-core';

export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/** The table's own id. */
export const id = () => bigserial('id', { mode: 'number' }).primaryKey();

/** An amount of money in fen (integer). */
export const fen = (name: string) => bigint(name, { mode: 'number' });
