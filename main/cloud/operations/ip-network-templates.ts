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
import { arrayOrNullSchema, listOperations } from './list-operations';

export interface TemplateListQuery {
  /** Case-insensitive part of the name. */
  nameFilter?: string;
  typeFilter?: TemplateInterface;
  sortBy?: TemplateSortBy;
  sortDirection?: SortDirection;
  limit?: number;
  page?: number;
}

export function ipNetworkTemplateOperations(t: Transport) {
  return {
    ...listOperations<
      TemplateListQuery,
      { limit: number; page: number },
      IpNetworkTemplateRecord[],
      IpNetworkTemplateRecord
    >(t, '/ipNetworkTemplates', arrayOrNullSchema(ipNetworkTemplateRecordSchema), {
      walk: walkArrayPages,
      at: (page, limit) => ({ limit, page }),
    }),
    create: (payload: IpNetworkTemplateCreateInput, call?: CallOptions) =>
      t.json(
        { method: 'POST', path: '/ipNetworkTemplates', body: payload, safeToRepeat: false },
        ipNetworkTemplateRecordSchema,
        call,
      ),
    get: (id: string, call?: CallOptions) =>
      t.json(
        { method: 'GET', path: `/ipNetworkTemplates/${seg(id)}`, safeToRepeat: true },
        ipNetworkTemplateRecordSchema,
        call,
      ),
  };
}
