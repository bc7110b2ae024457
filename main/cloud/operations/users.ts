import { z } from 'zod';
import {
  pageSchema,
  userRecordSchema,
  type UserRecord,
  type UserRegisterInput,
  type UserRole,
  type UserSortOption,
} from '../../../domain';
import { encodePathSegment as seg, type CallOptions, type Transport } from '../http';
import { walkPages, type PageOf } from '../paging';
import { listOperations } from './list-operations';

const userPageSchema = pageSchema(userRecordSchema);

export interface UserListQuery {
  /** true: only active users; false: only inactive; unset: everyone. */
  IsActive?: boolean;
  /** Name and email. */
  Search?: string;
  SortOptions?: UserSortOption;
  limit?: number;
  page?: number;
}

export function userOperations(t: Transport) {
  const byId = (id: string): string => `/users/${seg(id)}`;
  return {
    ...listOperations<UserListQuery, { limit: number; page: number }, PageOf<UserRecord>, UserRecord>(
      t,
      '/users',
      userPageSchema,
      {
        walk: walkPages,
        at: (page, limit) => ({ limit, page }),
      },
    ),
    register: (payload: UserRegisterInput, call?: CallOptions) =>
      t.json({ method: 'POST', path: '/users', body: payload, safeToRepeat: false }, z.boolean(), call),
    get: (id: string, call?: CallOptions) =>
      t.json({ method: 'GET', path: byId(id), safeToRepeat: true }, userRecordSchema, call),
    delete: (id: string, call?: CallOptions) =>
      t.json({ method: 'DELETE', path: byId(id), safeToRepeat: false }, z.boolean(), call),
    /** PATCH users/{id}/role with the role as a bare JSON string. Setting the same role twice is harmless. */
    setRole: (id: string, role: UserRole, call?: CallOptions) =>
      t.json({ method: 'PATCH', path: `${byId(id)}/role`, body: role, safeToRepeat: true }, z.boolean(), call),
  };
}
