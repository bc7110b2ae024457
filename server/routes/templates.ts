import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  ipNetworkTemplateCreateSchema,
  ipNetworkTemplateRecordSchema,
  templateListQuerySchema,
  validateIpNetworkTemplate,
  type IpNetworkTemplateRecord,
} from '../../domain';
import { notFound } from '../http/errors';
import { foundOr } from '../http/found-or';
import { orgOperation, type AnyOperationSpec } from '../http/operation';
import { idParams, orgParams } from '../http/schemas';
import { invalid } from '../http/validation';
import { getTemplate, insertTemplate, listTemplates, networkSettingsOf, type StoredTemplate } from '../store/templates';

function templateRecord(template: StoredTemplate): IpNetworkTemplateRecord {
  return {
    id: template.id,
    ...networkSettingsOf(template),
    passwordSet: template.passwordSealed !== null,
    createdAt: template.createdAt.toISOString(),
    lastEditedAt: template.lastEditedAt.toISOString(),
  };
}

const templateNotFound = (id: string) =>
  notFound('TEMPLATE_NOT_FOUND', `There is no IP network template ${id} in this organization.`, 'id');

export const templateOperations: AnyOperationSpec[] = [
  orgOperation({
    id: 'ipNetworkTemplates.list',
    method: 'GET',
    path: '/organizations/:orgId/ipNetworkTemplates',
    tag: 'IP network templates',
    summary:
      'IP network templates: nameFilter (case-insensitive part), typeFilter, sortBy (Name, LastEdited), sortDirection, limit, page (from 1).',
    params: orgParams,
    query: templateListQuerySchema,
    mutates: false,
    response: {
      kind: 'json',
      data: z.array(ipNetworkTemplateRecordSchema),
      description: 'An array of templates (the interface types it as an array).',
    },
    handler: async ({ db, caller, query }) => (await listTemplates(db, caller.orgId, query)).map(templateRecord),
  }),
  orgOperation({
    id: 'ipNetworkTemplates.create',
    method: 'POST',
    path: '/organizations/:orgId/ipNetworkTemplates',
    tag: 'IP network templates',
    summary: 'Creates an IP network template (Ethernet or Wifi adapter settings a device can use).',
    params: orgParams,
    body: ipNetworkTemplateCreateSchema,
    mutates: true,
    response: {
      kind: 'json',
      status: 201,
      data: ipNetworkTemplateRecordSchema,
      description: 'The new template; the Wifi password is never returned.',
    },
    handler: async ({ db, ctx, caller, body }) => {
      const violations = validateIpNetworkTemplate(body);
      if (violations.length > 0) throw invalid(violations);
      const stored = await insertTemplate(db, {
        id: randomUUID(),
        orgId: caller.orgId,
        settings: body,
        passwordSealed: body.password === undefined ? null : ctx.secrets.box.seal(body.password),
      });
      return templateRecord(stored);
    },
  }),
  orgOperation({
    id: 'ipNetworkTemplates.get',
    method: 'GET',
    path: '/organizations/:orgId/ipNetworkTemplates/:id',
    tag: 'IP network templates',
    summary: 'One IP network template.',
    params: idParams,
    mutates: false,
    response: { kind: 'json', data: ipNetworkTemplateRecordSchema, description: 'The template.' },
    handler: async ({ db, caller, params }) =>
      templateRecord(await foundOr(getTemplate(db, caller.orgId, params.id), () => templateNotFound(params.id))),
  }),
];
