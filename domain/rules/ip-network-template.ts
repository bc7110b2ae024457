import type { IpNetworkTemplateSettings } from '../ip-network-template';
import { violation, type Violation } from '../violations';
import { checkIpv4Address, checkNetmask } from './field-rules';

/** Every rule on an IP network template (a create payload or a stored template). */
export function validateIpNetworkTemplate(template: IpNetworkTemplateSettings): Violation[] {
  const found: (Violation | null)[] = [];
  if (template.ipNetworkTemplateName != null && template.ipNetworkTemplateName.trim().length === 0) {
    found.push(
      violation(
        'TEMPLATE_NAME_TOO_SHORT',
        'ipNetworkTemplateName',
        'The template needs a name: enter at least one character.',
      ),
    );
  }
  if (template.netmask == null || template.netmask.trim().length === 0) {
    found.push(violation('TEMPLATE_NETMASK_TOO_SHORT', 'netmask', 'The template needs a netmask, e.g. 255.255.255.0.'));
  } else {
    found.push(checkNetmask(template.netmask, 'netmask'));
  }
  if (template.gatewayIpAddress != null) found.push(checkIpv4Address(template.gatewayIpAddress, 'gatewayIpAddress'));
  (template.nameservers ?? []).forEach((server, index) => found.push(checkIpv4Address(server, `nameservers.${index}`)));
  if (template.commInterface !== 'Wifi') {
    for (const field of ['ssid', 'password'] as const) {
      if (template[field] != null && template[field] !== '') {
        found.push(
          violation(
            'WIFI_FIELD_WITHOUT_WIFI',
            field,
            `${field === 'ssid' ? 'An SSID' : 'A password'} only belongs in a Wifi template, and this is ${template.commInterface === 'None' ? 'a template without interface' : `an ${template.commInterface} template`}: make it a Wifi template, or remove the value.`,
          ),
        );
      }
    }
  }
  return found.filter((v): v is Violation => v !== null);
}
