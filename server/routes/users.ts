import { z } from 'zod';
import { userListQuerySchema, userRecordSchema, userRegisterSchema, userRoleBodySchema } from '../../domain';
import { conflict, notFound } from '../http/errors';
import { foundOr } from '../http/found-or';
import { orgOperation, type AnyOperationSpec } from '../http/operation';
import { pageOf, pageResponse } from '../http/page';
import { idParams, orgParams } from '../http/schemas';
import {
  deactivateUser,
  findUserByEmail,
  getUser,
  insertUser,
  listUsers,
  reactivateUser,
  setUserRole,
} from '../store/users';

const userNotFound = (id: string) => notFound('USER_NOT_FOUND', `There is no user ${id} in this organization.`, 'id');

export const userOperations: AnyOperationSpec[] = [
  orgOperation({
    id: 'users.list',
    method: 'GET',
    path: '/organizations/:orgId/users',
    tag: 'Users',
    summary:
      'Users of the organization: IsActive (unset: all), Search (name and email), SortOptions, limit, page (from 1).',
    params: orgParams,
    query: userListQuerySchema,
    mutates: false,
    response: pageResponse(userRecordSchema),
    handler: async ({ db, caller, query }) => {
      const { items, totalCount } = await listUsers(db, caller.orgId, {
        isActive: query.IsActive,
        search: query.Search,
        sort: query.SortOptions,
        limit: query.limit,
        page: query.page,
      });
      return pageOf(items, query, totalCount);
    },
  }),
  orgOperation({
    id: 'users.register',
    method: 'POST',
    path: '/organizations/:orgId/users',
    tag: 'Users',
    summary:
      'Registers a user by email with a role. A deleted (inactive) user with that email is reactivated with the new role.',
    params: orgParams,
    body: userRegisterSchema,
    mutates: true,
    response: { kind: 'json', data: z.boolean(), description: 'true when registered.' },
    handler: async ({ db, caller, body }) => {
      const existing = await findUserByEmail(db, caller.orgId, body.email);
      if (existing?.isActive)
        throw conflict(
          'USER_ALREADY_EXISTS',
          `${body.email} is already a user of this organization: change their role instead.`,
          'email',
        );
      if (existing) await reactivateUser(db, existing.id, body.userRole);
      else await insertUser(db, { orgId: caller.orgId, email: body.email, role: body.userRole });
      return true;
    },
  }),
  orgOperation({
    id: 'users.get',
    method: 'GET',
    path: '/organizations/:orgId/users/:id',
    tag: 'Users',
    summary: 'One user (also a deleted one, which reads isActive false).',
    params: idParams,
    mutates: false,
    response: { kind: 'json', data: userRecordSchema, description: 'The user.' },
    handler: async ({ db, caller, params }) =>
      foundOr(getUser(db, caller.orgId, params.id), () => userNotFound(params.id)),
  }),
  orgOperation({
    id: 'users.delete',
    method: 'DELETE',
    path: '/organizations/:orgId/users/:id',
    tag: 'Users',
    summary:
      'Deletes a user: the user becomes inactive (kept for the record; IsActive=false lists them). Deleting again answers true.',
    params: idParams,
    mutates: true,
    response: { kind: 'json', data: z.boolean(), description: 'true when the user is (now) inactive.' },
    handler: async ({ db, caller, params }) => {
      if (!(await deactivateUser(db, caller.orgId, params.id))) throw userNotFound(params.id);
      return true;
    },
  }),
  orgOperation({
    id: 'users.updateRole',
    method: 'PATCH',
    path: '/organizations/:orgId/users/:id/role',
    tag: 'Users',
    summary: 'Changes the role of a user. The body is a bare JSON string such as "Admin".',
    params: idParams,
    body: userRoleBodySchema,
    mutates: true,
    response: { kind: 'json', data: z.boolean(), description: 'true when the role is set.' },
    handler: async ({ db, caller, params, body }) => {
      if (!(await setUserRole(db, caller.orgId, params.id, body))) throw userNotFound(params.id);
      return true;
    },
  }),
];
