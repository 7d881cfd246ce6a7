# Sourced by the Go test scripts: points the Go tools (cgo's pkg-config,
# the dynamic loader) at the uninstalled meson build dir `build` of the
# repository root $root, which the caller sets.
export PKG_CONFIG_PATH="$root/build/meson-uninstalled${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
export LD_LIBRARY_PATH="$root/build${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
