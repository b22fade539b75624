#!/usr/bin/env bash
# Installs the Debian packages the test suite needs when they are missing (root only):
# Chromium for e2e (its headless shell runs the specs; the full browser the viewer and web benches), DCMTK for DICOM tests, GDCM's tools (JPEG 2000 test files for the viewer), CJK/Tibetan fonts so screenshots and report PDFs render the three languages, poppler-utils (pdftoppm, pdftotext) to read the PDFs back, espeak-ng (text-to-speech of queue calls), sox (soxi reads the audio's duration), coturn (the TURN server the consultation-video e2e relays through) and Orthanc with its DICOMweb plugin (the peer archive of the DICOM forwarding, query/retrieve and media tests; its own service is not needed).
set -euo pipefail
need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
[ -x /usr/bin/chromium-headless-shell ] || need+=(chromium-headless-shell)
command -v echoscu >/dev/null 2>&1 || need+=(dcmtk)
command -v gdcmconv >/dev/null 2>&1 || need+=(libgdcm-tools)
fc-list 2>/dev/null | grep -i 'Noto Sans CJK' >/dev/null || need+=(fonts-noto-cjk)
fc-list 2>/dev/null | grep -i 'Tibetan' >/dev/null || need+=(fonts-tibetan-machine)
command -v pdftoppm >/dev/null 2>&1 || need+=(poppler-utils)
command -v espeak-ng >/dev/null 2>&1 || need+=(espeak-ng)
command -v soxi >/dev/null 2>&1 || need+=(sox)
[ -x /usr/bin/turnserver ] || need+=(coturn)
[ -x /usr/sbin/Orthanc ] || need+=(orthanc)
dpkg -s orthanc-dicomweb >/dev/null 2>&1 || need+=(orthanc-dicomweb)
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "missing Debian packages: ${need[*]} (run as root, or install them: apt-get install ${need[*]})" >&2
  exit 1
fi
echo "installing: ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
