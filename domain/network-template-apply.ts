import type { ConfigurationDeviceSettings } from './configuration-device';
import type { IpNetworkTemplateSettings } from './ip-network-template';

/**
 * A device's settings after applying its IP network template: the template fills the adapter
 * fields (eth* for an Ethernet template, wifi* for a Wifi template) that the device leaves unset.
 * Fields set on the device win, since the interface says template fields can be overridden.
 */
export function applyNetworkTemplate<T extends ConfigurationDeviceSettings>(
  device: T,
  template: IpNetworkTemplateSettings,
): T {
  const nameservers = template.nameservers && template.nameservers.length > 0 ? [...template.nameservers] : null;
  if (template.commInterface === 'Ethernet') {
    return {
      ...device,
      ethNetmask: device.ethNetmask ?? template.netmask ?? null,
      ethGateway: device.ethGateway ?? template.gatewayIpAddress ?? null,
      ethNameservers: device.ethNameservers ?? nameservers,
    };
  }
  if (template.commInterface === 'Wifi') {
    const templatePassword = template.password ?? null;
    return {
      ...device,
      wifiNetmask: device.wifiNetmask ?? template.netmask ?? null,
      wifiGateway: device.wifiGateway ?? template.gatewayIpAddress ?? null,
      wifiNameservers: device.wifiNameservers ?? nameservers,
      wifiSsid: device.wifiSsid ?? template.ssid ?? null,
      wifiPassword: device.wifiPassword ?? templatePassword,
    };
  }
  return device;
}
