import type { MenuItemConstructorOptions } from 'electron';

export interface MenuOptions {
  appName: string;
  isMac: boolean;
  /** Not packaged: reload and developer tools are offered. A technician's build has neither. */
  isDev: boolean;
}

/** The application menu: File, Edit, View, Window, Help (macOS adds its app menu in front). */
export function buildMenuTemplate({ appName, isMac, isDev }: MenuOptions): MenuItemConstructorOptions[] {
  // Windows and Linux underline an access key after '&'; macOS has no access keys, so no '&'.
  const label = (name: string) => (isMac ? name : `&${name}`);
  const template: MenuItemConstructorOptions[] = [];
  if (isMac) {
    template.push({
      label: appName,
      submenu: [
        { role: 'about' },
        { type: 'separator' },
        { role: 'services' },
        { type: 'separator' },
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        { type: 'separator' },
        { role: 'quit' },
      ],
    });
  }
  template.push(
    { label: label('File'), submenu: [isMac ? { role: 'close' } : { role: 'quit' }] },
    {
      label: label('Edit'),
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'delete' },
        { type: 'separator' },
        { role: 'selectAll' },
      ],
    },
    {
      label: label('View'),
      submenu: [
        ...(isDev
          ? ([
              { role: 'reload' },
              { role: 'forceReload' },
              { role: 'toggleDevTools' },
              { type: 'separator' },
            ] as MenuItemConstructorOptions[])
          : []),
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    {
      label: label('Window'),
      role: 'windowMenu',
      submenu: isMac
        ? [{ role: 'minimize' }, { role: 'zoom' }, { type: 'separator' }, { role: 'front' }]
        : [{ role: 'minimize' }, { role: 'close' }],
    },
    { label: label('Help'), role: 'help', submenu: [{ label: `About ${appName}`, role: 'about' }] },
  );
  return template;
}
