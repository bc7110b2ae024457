#!/bin/bash
# Debian postinst of the Provisioner package. electron-builder replaces its own after-install
# script with this one, so the first part repeats what its default does (command link,
# chrome-sandbox mode, desktop database, AppArmor profile); the second installs the udev rule.
# electron-builder expands ${executable} and ${sanitizedProductName}; every other shell variable
# here is written $NAME without braces: electron-builder aborts on any macro it does not know.

if type update-alternatives >/dev/null 2>&1; then
    if [ -L '/usr/bin/${executable}' -a -e '/usr/bin/${executable}' -a "`readlink '/usr/bin/${executable}'`" != '/etc/alternatives/${executable}' ]; then
        rm -f '/usr/bin/${executable}'
    fi
    update-alternatives --install '/usr/bin/${executable}' '${executable}' '/opt/${sanitizedProductName}/${executable}' 100 || ln -sf '/opt/${sanitizedProductName}/${executable}' '/usr/bin/${executable}'
else
    ln -sf '/opt/${sanitizedProductName}/${executable}' '/usr/bin/${executable}'
fi

# Chromium's sandbox needs the SUID helper only where unprivileged user namespaces are unavailable.
if ! { [[ -L /proc/self/ns/user ]] && unshare --user true; }; then
    chmod 4755 '/opt/${sanitizedProductName}/chrome-sandbox' || true
else
    chmod 0755 '/opt/${sanitizedProductName}/chrome-sandbox' || true
fi

if hash update-mime-database 2>/dev/null; then
    update-mime-database /usr/share/mime || true
fi

if hash update-desktop-database 2>/dev/null; then
    update-desktop-database /usr/share/applications || true
fi

# AppArmor profile (Ubuntu 24.04+ restricts unprivileged user namespaces without one).
if apparmor_status --enabled > /dev/null 2>&1; then
  APPARMOR_PROFILE_SOURCE='/opt/${sanitizedProductName}/resources/apparmor-profile'
  APPARMOR_PROFILE_TARGET='/etc/apparmor.d/${executable}'
  if apparmor_parser --skip-kernel-load --debug "$APPARMOR_PROFILE_SOURCE" > /dev/null 2>&1; then
    cp -f "$APPARMOR_PROFILE_SOURCE" "$APPARMOR_PROFILE_TARGET"
    if ! { [ -x '/usr/bin/ischroot' ] && /usr/bin/ischroot; } && hash apparmor_parser 2>/dev/null; then
      apparmor_parser --replace --write-cache --skip-read-cache "$APPARMOR_PROFILE_TARGET"
    fi
  else
    echo "Skipping the installation of the AppArmor profile as this version of AppArmor does not seem to support the bundled profile"
  fi
fi

# udev rule: technicians in the plugdev group reach devices with USB product id 0xD101 without
# root, and ModemManager leaves them alone.
UDEV_RULE_SOURCE='/opt/${sanitizedProductName}/resources/linux/60-provisioner.rules'
UDEV_RULE_TARGET='/lib/udev/rules.d/60-provisioner.rules'
if [ -f "$UDEV_RULE_SOURCE" ]; then
    getent group plugdev > /dev/null 2>&1 || groupadd --system plugdev || true
    install -D -m 0644 "$UDEV_RULE_SOURCE" "$UDEV_RULE_TARGET"
    # No running udevd in a chroot or container image build: the rule applies at next boot.
    if hash udevadm 2>/dev/null; then
        udevadm control --reload-rules > /dev/null 2>&1 || true
        udevadm trigger --action=change --subsystem-match=usb --subsystem-match=tty > /dev/null 2>&1 || true
    fi
fi
