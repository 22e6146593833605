export { openStore, sqliteFileOf, bytesDirOf } from './store.js';
export type { Store, StoreOptions, StoreScope, StoreTelemetry } from './store.js';
export type { RepoScope, StoreKind } from './scope.js';
export type { Database } from './database.js';
export type { Repositories } from './repositories.js';
export { systemClock, TestClock } from './clock.js';
export type { Clock } from './clock.js';
export { isoTime, addSeconds, parseIsoTime } from './time.js';
export type { IsoTime } from './time.js';
export { newId, randomSecret, sha256Hex } from './ids.js';
export { StoreError, isUniqueViolation, storageFailureOf } from './errors.js';
export type { StorageFailure, StoreErrorCode } from './errors.js';
export type { ByteStore, ByteSource, ByteRange, PutResult } from './bytes/byte-store.js';
export { isSha256Hex } from './bytes/byte-store.js';
export { DiskByteStore } from './bytes/disk-byte-store.js';
// The object store itself is loaded by openStore only where used (the AWS SDK is large).
export type { S3ByteStore } from './bytes/s3-byte-store.js';
export { bytesUrlProblem, objectBytesOptionsOf } from './bytes/object-bytes-options.js';
export type { ObjectBytesOptions, ObjectBytesEnv } from './bytes/object-bytes-options.js';
// Each domain's public types and helpers (its `src/<domain>/index.ts`): one line per domain.
export * from './accounts/index.js';
export * from './projects/index.js';
export * from './assets/index.js';
export * from './events/index.js';
export * from './mcp/index.js';
