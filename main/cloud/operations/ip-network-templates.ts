import { z } from 'zod';
import {
  ipNetworkTemplateRecordSchema,
  type IpNetworkTemplateCreateInput,
  type IpNetworkTemplateRecord,
  type SortDirection,
  type TemplateInterface,
  type TemplateSortBy,
} from '../../../domain';
import { encodePathSegment as seg, type CallOptions, type Transport } from '../http';
import { walkArrayPages } from '../paging';
import { listOperations } from './list-operations';

export interface TemplateListQuery {
  /** Case-insensitive part of the name. */
  nameFilter?: string;
  typeFilter?: TemplateInterface;
  sortBy?: TemplateSortBy;
  sortDirection?: SortDirection;
  limit?: number;
  page?: number;
}

/** The interface types this list as "array or null": null reads as empty. */
const templateArraySchema = z
  .array(ipNetworkTemplateRecordSchema)
  .nullable()
  .transform((items) => items ?? []);

export function ipNetworkTemplateOperations(t: Transport) {
  return {
    ...listOperations<TemplateListQuery, { limit: number; page: number }, IpNetworkTemplateRecord[], IpNetworkTemplateRecord>(t, '/ipNetworkTemplates', templateArraySchema, {
      walk: walkArrayPages,
      at: (page, limit) => ({ limit, page }),
    }),
    create: (payload: IpNetworkTemplateCreateInput, call?: CallOptions) =>
      t.json({ method: 'POST', path: '/ipNetworkTemplates', body: payload, safeToRepeat: false }, ipNetworkTemplateRecordSchema, call),
    get: (id: string, call?: CallOptions) =>
      t.json({ method: 'GET', path: `/ipNetworkTemplates/${seg(id)}`, safeToRepeat: true }, ipNetworkTemplateRecordSchema, call),
  };
}
