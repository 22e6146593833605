import type { Request } from 'express';
import { authOf } from '../../auth/context.js';
import { ownerOf } from '../service/access.js';

/** The caller: account number and owner string (`user:<n>`); 401 without credentials. */
export function callerOf(req: Request): { accountNumber: number; owner: string } {
  const { account } = authOf(req);
  return { accountNumber: account.accountNumber, owner: ownerOf(account.accountNumber) };
}
