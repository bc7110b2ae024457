#!/bin/bash
# Debian postrm of the Provisioner package: electron-builder's default clean-up (command link,
# AppArmor profile), then the udev rule that after-install.sh put in place.
# Shell variables are written $NAME without braces: electron-builder expands ${...} macros.

if type update-alternatives >/dev/null 2>&1; then
    update-alternatives --remove '${executable}' '/opt/${sanitizedProductName}/${executable}'
else
    rm -f '/usr/bin/${executable}'
fi

APPARMOR_PROFILE_DEST='/etc/apparmor.d/${executable}'
if [ -f "$APPARMOR_PROFILE_DEST" ]; then
  if apparmor_status --enabled > /dev/null 2>&1; then
    if ! { [ -x '/usr/bin/ischroot' ] && /usr/bin/ischroot; } && hash apparmor_parser 2>/dev/null; then
      apparmor_parser --remove "$APPARMOR_PROFILE_DEST" || true
    fi
  fi
  rm -f "$APPARMOR_PROFILE_DEST"
fi

UDEV_RULE_TARGET='/lib/udev/rules.d/60-provisioner.rules'
if [ -f "$UDEV_RULE_TARGET" ]; then
    rm -f "$UDEV_RULE_TARGET"
    if hash udevadm 2>/dev/null; then
        udevadm control --reload-rules > /dev/null 2>&1 || true
    fi
fi
