import type { Resource } from '../context';
import { configResource } from './config';
import { firmwareResource } from './firmware';
import { firmwareApplyResource } from './firmware-apply';
import { firmwareDataResource } from './firmware-data';
import { infoResource } from './info';
import { rebootResource } from './reboot';
import { safetyResource } from './safety';
import { paramsResource } from './params';
import { wellKnownCoreResource } from './well-known-core';

/** Every resource of docs/device-protocol.md, /.well-known/core listing the others. */
export function deviceResources(): Resource[] {
  const resources = [
    infoResource,
    firmwareResource,
    firmwareDataResource,
    firmwareApplyResource,
    configResource,
    rebootResource,
    safetyResource,
    paramsResource,
  ];
  return [wellKnownCoreResource(resources), ...resources];
}

export { firmwareStatusResponse } from './firmware';
